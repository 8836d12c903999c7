import { slugOf } from '@travesia/domain/slug';
import type { BlogSeed } from '#app/modules/blog/service.ts';

/**
 * The demo company's blog: the articles the home page lists (same ids, titles, summaries and images, under
 * apps/web/public/img/blog) with their bodies; the newest, the list's first card, has its own image too. Bodies are
 * HTML; the storefront sanitises them before rendering.
 */

const categories = [
  { id: 1, slug: 'consejos-de-viaje', label: 'Consejos de viaje' },
  { id: 2, slug: 'destinos', label: 'Destinos' },
  { id: 3, slug: 'asistencia-y-coberturas', label: 'Asistencia y coberturas' },
];

type Post = Omit<BlogSeed['posts'][number], 'slug'>;

const posts: Post[] = [
  {
    id: 1,
    categoryId: 1,
    title: 'Qué llevar en el equipaje de mano en un vuelo largo',
    summary:
      'Remedios, cargadores, una muda de ropa y copias de tus documentos: la lista que te salva si tu maleta no llega contigo.',
    image: '/img/blog/equipaje-de-mano.svg',
    publishedAt: '2026-01-12T09:00:00-03:00',
    bodyHtml: `<p>En un vuelo de más de diez horas, o con una escala larga, lo que llevas contigo en la cabina es lo único con lo que cuentas si la aerolínea demora o extravía tu maleta. Estas son las cosas que conviene tener siempre a mano.</p>
<h2>Documentos y dinero</h2>
<ul>
<li>Pasaporte o cédula de identidad vigente, pasajes y reservas de alojamiento.</li>
<li>Tu certificado de asistencia en viaje, impreso o en el teléfono, con el número de emergencias.</li>
<li>Una tarjeta de crédito y algo de efectivo en la moneda del destino.</li>
</ul>
<h2>Salud</h2>
<p>Lleva los medicamentos que tomas a diario para todo el viaje y dos o tres días más, en su envase original y con la receta médica. Los líquidos deben ir en envases de hasta 100 ml dentro de una bolsa transparente.</p>
<h2>Para no quedar a la deriva</h2>
<ul>
<li>Una muda de ropa y lo básico de aseo personal.</li>
<li>Cargador y batería externa (las baterías de litio nunca van en la maleta despachada).</li>
<li>Una foto de tu maleta y de su etiqueta, que te servirá para el reclamo en el aeropuerto.</li>
</ul>
<p>Si tu equipaje no llega, haz el reclamo en el mostrador de la aerolínea antes de salir del aeropuerto (te entregarán un formulario <abbr title="Property Irregularity Report">PIR</abbr>) y llámanos: te ayudamos a ubicarlo y a pedir la compensación que cubre tu plan.</p>`,
  },
  {
    id: 2,
    categoryId: 1,
    title: 'Viajar con niños: checklist antes de salir de Chile',
    summary: 'Permiso notarial, pasaporte vigente, vacunas y qué hacer si tu hijo se enferma en el extranjero.',
    image: '/img/blog/viajar-con-ninos.svg',
    publishedAt: '2026-02-03T09:00:00-03:00',
    bodyHtml: `<p>Viajar en familia se disfruta mucho más cuando los trámites están resueltos con tiempo. Esta lista resume lo que la Policía de Investigaciones (PDI) y las aerolíneas piden para los menores de edad.</p>
<h2>Documentos del menor</h2>
<ul>
<li>Cédula de identidad o pasaporte vigente del niño o niña. Para países fuera de Sudamérica, el pasaporte es obligatorio.</li>
<li>Certificado de nacimiento, que acredita quiénes son sus padres.</li>
<li><strong>Autorización notarial</strong> si viaja con solo uno de sus padres, con otros familiares o solo: la firma el padre o la madre que no viaja, ante notario, e indica destino y fechas.</li>
</ul>
<h2>Salud</h2>
<p>Revisa el calendario de vacunas y las que exige el destino, y lleva un resumen de la ficha médica si tu hijo tiene alguna enfermedad crónica o alergia. Los planes de asistencia cubren a los menores igual que a los adultos: consultas, hospitalización y medicamentos por enfermedad o accidente durante el viaje.</p>
<h2>Si se enferma en el extranjero</h2>
<ol>
<li>Llama a la central de emergencias 24/7 antes de ir a una clínica, salvo que sea una urgencia vital.</li>
<li>Te indicaremos el prestador más cercano de nuestra red, donde no tendrás que pagar.</li>
<li>Guarda boletas e informes médicos de cualquier gasto: los necesitarás para el reembolso.</li>
</ol>`,
  },
  {
    id: 3,
    categoryId: 1,
    title: 'Pasaporte, visas y permisos: los trámites que no puedes olvidar',
    summary:
      'Revisa con tiempo la vigencia de tu pasaporte y los requisitos de entrada de cada país antes de comprar tus pasajes.',
    image: '/img/blog/tramites-antes-de-viajar.svg',
    publishedAt: '2026-03-18T09:00:00-03:00',
    bodyHtml: `<p>Muchos viajes se complican en el aeropuerto por un documento vencido o un permiso olvidado. Revisa esto antes de comprar tus pasajes.</p>
<h2>Vigencia del pasaporte</h2>
<p>Varios países exigen que el pasaporte tenga al menos seis meses de vigencia desde la fecha de entrada, y algunas aerolíneas no te dejarán embarcar si no la cumple. Si vence pronto, renuévalo en el Registro Civil antes de viajar.</p>
<h2>Visas y autorizaciones electrónicas</h2>
<ul>
<li><strong>Estados Unidos:</strong> los chilenos viajan por turismo con el Programa de Exención de Visas, tramitando antes el ESTA en línea.</li>
<li><strong>Canadá:</strong> se necesita una autorización electrónica de viaje (eTA) para llegar en avión.</li>
<li><strong>Espacio Schengen:</strong> no se necesita visa para estadías de turismo de hasta 90 días en un período de 180.</li>
</ul>
<h2>Seguro o asistencia obligatoria</h2>
<p>Algunos destinos exigen acreditar una cobertura médica al entrar. Tu certificado de Travesía indica la cobertura, las fechas y tus datos, y puedes descargarlo o reenviarlo desde la página de certificados.</p>`,
  },
  {
    id: 4,
    categoryId: 2,
    title: 'Primer viaje a Europa: cómo recorrer el espacio Schengen',
    summary:
      'Cuántos días puedes quedarte, qué cobertura médica te pueden exigir en la frontera y cómo moverte entre países.',
    image: '/img/blog/europa-schengen.svg',
    publishedAt: '2026-01-26T09:00:00-03:00',
    bodyHtml: `<p>El espacio Schengen reúne a 29 países europeos que eliminaron los controles en sus fronteras comunes: pasas por migraciones al entrar al primero y luego te mueves entre ellos como dentro de un solo país.</p>
<h2>¿Cuánto tiempo puedo quedarme?</h2>
<p>Con pasaporte chileno puedes estar hasta <strong>90 días dentro de cualquier período de 180 días</strong>, sumando todos los países Schengen, sin visa de turismo. Los días se cuentan hacia atrás desde cada fecha: si ya usaste 60 días en los últimos seis meses, te quedan 30.</p>
<h2>Qué pueden pedirte en la frontera</h2>
<ul>
<li>Pasaporte vigente por al menos tres meses después de la salida prevista.</li>
<li>Pasaje de regreso o de continuación, y reservas de alojamiento o una carta de invitación.</li>
<li>Medios económicos suficientes para tu estadía.</li>
<li>Un seguro o asistencia médica de viaje. Para quienes sí necesitan visa, la norma exige una cobertura mínima de <strong>30.000 euros</strong> para gastos médicos y repatriación, válida en todo el espacio Schengen.</li>
</ul>
<p>Todos los planes Travesía para Europa superan ese mínimo y el certificado incluye un texto en inglés con la cobertura, las fechas y tu documento, como lo piden consulados y agentes de frontera.</p>
<h2>Moverse entre países</h2>
<p>Trenes y buses cruzan las fronteras sin control, pero lleva siempre tu pasaporte: puede haber controles aleatorios y lo piden los hoteles. El Reino Unido e Irlanda no son parte de Schengen y tienen sus propias reglas de entrada.</p>`,
  },
  {
    id: 5,
    categoryId: 2,
    title: 'Mundial 2026: qué considerar si viajas a Estados Unidos, México o Canadá',
    summary:
      'Costos médicos, visas y traslados entre sedes: lo que conviene saber antes de partir a alentar a la selección de tu corazón.',
    image: '/img/blog/mundial-2026.svg',
    publishedAt: '2026-04-07T09:00:00-04:00',
    bodyHtml: `<p>El Mundial 2026 se juega en 16 ciudades de tres países. Si piensas seguir a un equipo por varias sedes, planifica documentos y cobertura para cada uno.</p>
<h2>Documentos de entrada</h2>
<ul>
<li><strong>Estados Unidos:</strong> ESTA aprobado antes de embarcar (Programa de Exención de Visas).</li>
<li><strong>Canadá:</strong> eTA si llegas en avión.</li>
<li><strong>México:</strong> los chilenos no necesitan visa de turismo; completa el formulario migratorio al llegar.</li>
</ul>
<h2>Costos médicos</h2>
<p>Una noche de hospitalización en Estados Unidos puede superar varios miles de dólares. Elige un plan con tope médico alto (Travesía Plus o Premium cubren desde USD 60.000) y revisa que cubra actividades en estadios y eventos masivos.</p>
<h2>Traslados entre sedes</h2>
<p>Las distancias son enormes: entre Vancouver y Ciudad de México hay más de cinco horas de vuelo. Si cambias de país, tu plan te cubre en todos los destinos de la región que contrataste.</p>`,
  },
  {
    id: 6,
    categoryId: 2,
    title: 'Ruta por la Patagonia argentina: consejos para cruzar la frontera en auto',
    summary:
      'Documentos del vehículo, seguro obligatorio y los pasos fronterizos más usados desde Coyhaique y Punta Arenas.',
    image: '/img/blog/patagonia.svg',
    publishedAt: '2026-05-14T09:00:00-04:00',
    bodyHtml: `<p>Cruzar a la Patagonia argentina en tu propio auto es una de las rutas más lindas del continente. Para que el paso fronterizo sea un trámite y no un problema, prepara esto.</p>
<h2>Documentos del vehículo</h2>
<ul>
<li>Padrón o certificado de inscripción del vehículo a tu nombre.</li>
<li>Si el auto no es tuyo, una autorización notarial del dueño para salir del país.</li>
<li>Seguro de responsabilidad civil vigente para circular en Argentina (seguro obligatorio del Mercosur).</li>
</ul>
<h2>Pasos fronterizos</h2>
<p>Desde Coyhaique se usan Coyhaique Alto y Huemules; desde Punta Arenas, Integración Austral (Monte Aymond) hacia Río Gallegos. Revisa el estado y horario de cada paso en el sitio oficial de pasos fronterizos antes de salir: en invierno cierran por nieve.</p>
<h2>Tu asistencia</h2>
<p>La asistencia en viaje cubre a las personas (atención médica, traslados sanitarios), no al vehículo. Para el auto necesitas el seguro obligatorio y, si quieres, una asistencia vehicular aparte.</p>`,
  },
  {
    id: 7,
    categoryId: 3,
    title: 'Cómo pedir un reembolso paso a paso',
    summary:
      'Boletas, informe médico y datos bancarios: te explicamos qué documentos reunir para que tu reembolso no se atrase.',
    image: '/img/blog/como-pedir-un-reembolso.svg',
    publishedAt: '2026-02-20T09:00:00-03:00',
    bodyHtml: `<p>Si pagaste una atención médica durante el viaje, por una urgencia o porque no había prestador de la red, puedes pedir que te la devolvamos.</p>
<ol>
<li><strong>Avísanos</strong> a la central de emergencias dentro de las 24 horas siguientes a la atención, si no pudiste hacerlo antes.</li>
<li><strong>Reúne los documentos:</strong> boletas o facturas originales, informe médico con diagnóstico, recetas y comprobantes de pago de los medicamentos.</li>
<li><strong>Completa la solicitud</strong> en la página de reembolsos con el número de tu certificado, lo que ocurrió y los datos de tu cuenta bancaria en Chile.</li>
<li><strong>Adjunta los archivos</strong> en PDF, JPG o PNG, bien legibles.</li>
</ol>
<p>Revisamos las solicitudes completas en un plazo de diez días hábiles y transferimos el monto aprobado en pesos chilenos al tipo de cambio de la fecha de pago.</p>`,
  },
  {
    id: 8,
    categoryId: 3,
    title: '¿Basta con la asistencia de tu tarjeta de crédito?',
    summary:
      'Comparamos topes, exclusiones y requisitos de activación de los beneficios de tarjetas con un plan de asistencia.',
    image: '/img/blog/tarjeta-de-credito.svg',
    publishedAt: '2026-06-02T09:00:00-04:00',
    bodyHtml: `<p>Muchas tarjetas de crédito incluyen una asistencia en viaje. Antes de confiar en ella, revisa estas cuatro cosas en sus condiciones.</p>
<h2>1. Requisito de activación</h2>
<p>Casi siempre exige que hayas pagado el pasaje completo con esa tarjeta, y a veces que lo actives antes de viajar.</p>
<h2>2. Tope médico</h2>
<p>Los topes de las tarjetas suelen ser bajos para Estados Unidos o Europa. Compáralo con el costo de una hospitalización en tu destino.</p>
<h2>3. Quiénes están cubiertos</h2>
<p>Muchas cubren solo al titular y a su cónyuge, o a los hijos hasta cierta edad, y no a otros acompañantes.</p>
<h2>4. Exclusiones</h2>
<p>Enfermedades preexistentes, mayores de cierta edad, deportes o embarazo suelen quedar fuera. Un plan de asistencia te dice exactamente qué cubre y por cuánto, y puedes elegir el tope que necesitas.</p>`,
  },
  {
    id: 9,
    categoryId: 3,
    title: '¿Qué cubre una asistencia en viaje?',
    summary:
      'Gastos médicos, medicamentos, repatriación, equipaje y cancelación: qué incluye un plan, qué no y cómo usarlo.',
    image: '/img/blog/que-cubre-una-asistencia.svg',
    publishedAt: '2026-07-09T09:00:00-04:00',
    bodyHtml: `<p>Una asistencia en viaje es un servicio que te atiende si te enfermas, te accidentas o tienes un imprevisto fuera de tu país, con una central que funciona las 24 horas y una red de prestadores en todo el mundo.</p>
<h2>Lo que cubre</h2>
<ul>
<li><strong>Asistencia médica:</strong> consultas, exámenes, hospitalización y cirugías por enfermedad o accidente, hasta el tope de tu plan.</li>
<li><strong>Medicamentos</strong> recetados durante el viaje.</li>
<li><strong>Traslado sanitario y repatriación</strong> a Chile cuando el equipo médico lo indica.</li>
<li><strong>Equipaje:</strong> compensación por pérdida del equipaje despachado.</li>
<li><strong>Cancelación o interrupción del viaje</strong> por causas justificadas, según el plan.</li>
<li><strong>Asistencia legal</strong> y adelanto de fianzas.</li>
</ul>
<h2>Lo que no cubre</h2>
<p>En general quedan fuera los tratamientos de enfermedades preexistentes (salvo la urgencia que indique cada plan), los controles de rutina, los deportes de riesgo no contratados y los hechos ocurridos fuera de la vigencia del certificado.</p>
<h2>Cómo usarla</h2>
<p>Llama primero a la central de emergencias: te derivamos a un prestador de la red donde no pagas nada. Si no pudiste llamar, guarda todas las boletas e informes y pide el reembolso al volver.</p>`,
  },
];

export const demoBlog: BlogSeed = {
  categories,
  posts: posts.map((post) => ({ ...post, slug: slugOf(post.title) })),
};
