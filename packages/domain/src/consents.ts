/**
 * What the buyer agrees to before paying (Ley 19.628 on personal data; Ley 19.496 on consumers): the processing of
 * the travellers' data for the service, required, and marketing, optional and apart. The texts are shown on the
 * payment step and stored, by version, with the sale: a changed wording gets a new version.
 */
export const consentVersion = '2026-11-23';

export const consentTexts = {
  dataProcessing:
    'Autorizo el tratamiento de los datos personales de los pasajeros para emitir y prestar la asistencia contratada, según la política de privacidad.',
  marketing: 'Quiero recibir ofertas y novedades por correo (opcional).',
} as const;

/** Said when the required consent is missing, beside its checkbox and in the API's field error. */
export const dataProcessingConsentRequired = {
  code: 'consent_required',
  message: 'Debes autorizar el tratamiento de los datos de los pasajeros para contratar',
} as const;

/** The withdrawal right (derecho a retracto) as the payment step states it before the buyer pays. */
export const withdrawalNotice =
  'Derecho a retracto: puedes retractarte de esta compra hasta el décimo día corrido desde la fecha de compra (hasta las 23:59, hora de Chile), siempre que el viaje no haya comenzado, y te devolvemos el total pagado.';
