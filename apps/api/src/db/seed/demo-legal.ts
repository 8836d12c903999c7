import type { LegalPageSeed } from '#app/modules/legal/service.ts';

/**
 * The demo company's legal pages. Bodies are HTML; the storefront sanitises them before rendering. The seller's
 * identity (name, RUT, address, contact) is not repeated here: /informacion-legal shows it from the company data.
 */
export const demoLegalPages: LegalPageSeed[] = [
  {
    slug: 'terminos',
    title: 'Términos y condiciones',
    description:
      'Condiciones de uso del sitio y de contratación de los planes de asistencia en viaje de Travesía: compra, pago, vigencia, anulación y reclamos.',
    bodyHtml: `<h2>1. Objeto</h2>
<p>Estos términos regulan el uso de este sitio y la contratación en línea de planes de asistencia en viaje ofrecidos por Travesía. Al comprar un plan aceptas estos términos y las Condiciones Generales del plan elegido, que puedes revisar antes de pagar.</p>
<h2>2. Contratación y precio</h2>
<p>El precio de cada plan se informa en dólares de los Estados Unidos y en pesos chilenos, con los descuentos y promociones ya aplicados e impuestos incluidos. El monto que pagas es el calculado en la cotización que confirmas; puedes pagar en hasta 6 cuotas sin interés con las tarjetas que acepte el medio de pago.</p>
<h2>3. Vigencia y certificado</h2>
<p>La cobertura rige entre las fechas de salida y regreso indicadas en el certificado, que enviamos por correo electrónico al confirmarse el pago y que puedes descargar o reenviar desde la página de certificados.</p>
<h2>4. Cambios y anulación</h2>
<p>Puedes cambiar las fechas o anular el plan sin costo antes del inicio de su vigencia, escribiendo a nuestro correo de contacto con el número de certificado. Una vez iniciada la vigencia no procede la devolución del precio.</p>
<h2>5. Derechos del consumidor</h2>
<p>Estos términos no limitan los derechos que te otorga la Ley N° 19.496 sobre Protección de los Derechos de los Consumidores. Puedes presentar tus reclamos a nuestro servicio al cliente o ante el Servicio Nacional del Consumidor (SERNAC).</p>
<h2>6. Ley aplicable</h2>
<p>Estos términos se rigen por las leyes de la República de Chile.</p>`,
  },
  {
    slug: 'politicas',
    title: 'Políticas de privacidad',
    description:
      'Cómo Travesía trata tus datos personales: qué datos pedimos, para qué los usamos, con quién los compartimos y cómo ejercer tus derechos.',
    bodyHtml: `<p>Tratamos tus datos personales conforme a la Ley N° 19.628 sobre Protección de la Vida Privada y sus modificaciones.</p>
<h2>Qué datos pedimos</h2>
<ul>
<li>Datos de los pasajeros: nombre, documento de identidad, fecha de nacimiento, nacionalidad, correo y teléfono.</li>
<li>Contacto de emergencia y datos de facturación.</li>
<li>Los datos de pago los recibe directamente el medio de pago; nosotros no vemos ni guardamos los números de tu tarjeta.</li>
</ul>
<h2>Para qué los usamos</h2>
<p>Para emitir tu certificado, prestarte la asistencia durante el viaje, tramitar reembolsos, emitir boletas o facturas y responder tus consultas. Solo te enviaremos novedades y promociones si te suscribes, y puedes darte de baja cuando quieras.</p>
<h2>Con quién los compartimos</h2>
<p>Con los prestadores médicos y de asistencia que te atienden en el viaje, con el medio de pago y con las autoridades cuando la ley lo exige. No vendemos tus datos.</p>
<h2>Tu autorización</h2>
<p>Antes de pagar te pedimos dos autorizaciones separadas, que nunca vienen marcadas: la de tratar los datos de los pasajeros para emitir y prestar la asistencia (necesaria para contratar) y, si quieres, la de enviarte ofertas por correo. Guardamos con tu compra qué autorizaste, cuándo y la versión del texto que leíste.</p>
<h2>Cuánto tiempo los guardamos</h2>
<p>Los datos de la compra y de los pasajeros, mientras dure la cobertura y luego por el plazo que exigen las normas tributarias para respaldar la venta (6 años). Tu correo de suscripción, hasta que te des de baja. Pasados esos plazos puedes pedirnos que los eliminemos.</p>
<h2>Tus derechos</h2>
<p>Puedes pedir acceso, rectificación, cancelación u oposición al tratamiento de tus datos escribiendo a nuestro correo de contacto o desde la página de contacto, indicando tu número de compra. Puedes ver en todo momento los datos de tu compra en «Mi compra». Responderemos dentro de los plazos legales.</p>
<h2>Cookies</h2>
<p>Usamos cookies necesarias para que el sitio funcione (por ejemplo, para recordar tu compra en curso) y, si están habilitadas, cookies de medición para mejorar el sitio.</p>`,
  },
  {
    slug: 'informacion-legal',
    title: 'Información legal',
    description:
      'Identificación del proveedor de los planes de asistencia en viaje vendidos en este sitio, como lo exige la Ley N° 19.496, y canales de atención.',
    bodyHtml: `<p>En cumplimiento de la Ley N° 19.496 sobre Protección de los Derechos de los Consumidores, informamos la identidad del proveedor que vende los planes de este sitio y cómo contactarlo.</p>
<h2>Atención de consultas y reclamos</h2>
<p>Puedes escribirnos o llamarnos por los medios indicados en esta página, o usar el formulario de contacto. Respondemos los reclamos dentro de un plazo de diez días hábiles. Si no quedas conforme, puedes acudir al Servicio Nacional del Consumidor (SERNAC) en <a href="https://www.sernac.cl">www.sernac.cl</a>.</p>
<h2>Medios de pago</h2>
<p>Los pagos se procesan a través de Webpay Plus de Transbank. El comprobante de la transacción y el certificado se envían al correo indicado en la compra.</p>`,
  },
];
