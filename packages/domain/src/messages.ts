/**
 * The texts of spec §8 (error catalogue, English, on the wire) and the Spanish UI texts both sides share. The
 * messages of the field rules are beside their rules, in rules.ts.
 */
export const errorMessages = {
  companyNotFound: 'Company not found',
  resourceNotFound: 'Resource not found',
  internal: 'Internal error',
  invalidInputParameters: 'Invalid input parameters',
  invalidInputs: 'Invalid inputs supplied',
  invalidQuotationId: 'Invalid quotation id supplied',
  invalidPlanQuotationId: 'Invalid quotationId supplied',
  movedPermanently: 'Moved Permanently',
  unexpected: 'An unexpected server error occurred',
  tooManyRequests: 'Too many requests',
} as const;

/** Spec §8: "A missing required parameter raises an error such as: The parameter 'companyId' must be defined." */
export function parameterMustBeDefined(name: string): string {
  return `The parameter '${name}' must be defined.`;
}

export const uiMessages = {
  emailSubscribed: 'El email ha sido suscrito',
  /** Newsletter double opt-in: shown with emailSubscribed, and the pages of the e-mailed link. */
  subscriptionCheckInbox: 'Revisa tu correo para confirmar tu suscripción.',
  subscriptionConfirmed: '¡Listo! Tu suscripción está confirmada.',
  subscriptionLinkInvalid:
    'Este enlace de confirmación no es válido o ya venció. Suscríbete de nuevo y te enviaremos uno nuevo.',
  helpModalTitle: '¿Necesitas ayuda o información?',
  subscribeTitle: 'Suscríbete',
  clientAccess: 'Acceso Clientes',
} as const;
