import { demoBlog } from './demo-blog.ts';
import { demoLegalPages } from './demo-legal.ts';
import { demoAddOns, demoDiscountCodes, demoPlans } from './demo-plans.ts';
import type { CompanySeed } from './types.ts';

/**
 * The demo company: "Travesía", a Chilean travel-assistance insurer. Every text is what the storefront shows;
 * every image path points to a file under apps/web/public.
 */

const brand = {
  teal: '#0b5563',
  tealDark: '#073b45',
  coral: '#f26b4f',
  white: '#ffffff',
  mist: '#c9dde0',
} as const;

const address = 'Av. Apoquindo 4501, oficina 1202, Las Condes, Santiago';

/** Mesa central, emergencias y WhatsApp: the numbers repeated across the help modal, the footer and the directory. */
export const demoPhones = {
  central: '+56 (2) 2640 2000',
  emergency: '+56 (2) 2640 2020',
  abroad: '+1 (786) 347 2210',
  sales: '+56 (2) 2640 2100',
  refunds: '+56 (2) 2640 2200',
  customerService: '+56 (2) 2640 2300',
  business: '+56 (2) 2640 2400',
  whatsappEmergency: '+56 9 4000 2000',
  whatsappEmergency2: '+56 9 4000 2001',
  whatsappSales: '+56 9 4000 3000',
} as const;

const europe = ['ES', 'FR', 'IT', 'DE', 'PT', 'GB', 'NL', 'BE', 'CH', 'AT', 'GR', 'IE', 'HR'];
const southAmerica = ['AR', 'BO', 'BR', 'CO', 'EC', 'PE', 'PY', 'UY', 'VE'];
const northAmerica = ['US', 'CA', 'MX', 'CR', 'PA', 'DO', 'CU'];
const asia = ['JP', 'CN', 'KR', 'TH', 'VN', 'IN', 'SG', 'ID'];
const oceania = ['AU', 'NZ'];
const africaMiddleEast = ['ZA', 'MA', 'EG', 'AE', 'IL', 'TR'];

export const demoCompany: CompanySeed = {
  company: {
    id: 1,
    name: 'Travesía',
    legalName: 'Travesía Asistencia en Viaje SpA',
    rut: '77.345.678-K',
    address,
    contactEmail: 'contacto@travesia.cl',
    contactPhone: demoPhones.central,
  },

  blog: demoBlog,
  legalPages: demoLegalPages,

  documents: {
    'navigation-bar': {
      logo: '/img/logo.svg',
      items: [
        {
          label: 'Inicio',
          href: '/home',
          target: '_self',
          isMenu: false,
          isButton: false,
          colorPrimario: null,
          colorSecundario: null,
          items1: [],
        },
        {
          label: 'Planes',
          href: '/home#cotizar',
          target: '_self',
          isMenu: true,
          isButton: false,
          colorPrimario: null,
          colorSecundario: null,
          items1: [
            { icon: '/img/icons/calculator.svg', label: 'Cotiza tu viaje', href: '/home#cotizar', target: '_self' },
            {
              icon: '/img/icons/certificate.svg',
              label: 'Descarga tu certificado',
              href: '/certificados',
              target: '_self',
            },
            { icon: '/img/icons/cart.svg', label: 'Mi compra', href: '/mi-compra', target: '_self' },
            { icon: '/img/icons/refund.svg', label: 'Solicita un reembolso', href: '/reembolsos', target: '_self' },
            {
              icon: '/img/icons/briefcase.svg',
              label: 'Planes para empresas',
              href: 'https://empresas.travesia.cl',
              target: '_blank',
            },
          ],
        },
        {
          label: 'Preguntas frecuentes',
          href: '/faq',
          target: '_self',
          isMenu: false,
          isButton: false,
          colorPrimario: null,
          colorSecundario: null,
          items1: [],
        },
        {
          label: 'Contacto',
          href: '/contactanos',
          target: '_self',
          isMenu: false,
          isButton: false,
          colorPrimario: null,
          colorSecundario: null,
          items1: [],
        },
        {
          label: 'Blog',
          href: '/blog',
          target: '_self',
          isMenu: false,
          isButton: false,
          colorPrimario: null,
          colorSecundario: null,
          items1: [],
        },
        {
          label: '¿Necesitas ayuda?',
          href: '#ayuda',
          target: '_self',
          isMenu: false,
          isButton: true,
          colorPrimario: brand.coral,
          colorSecundario: brand.white,
          items1: [],
        },
      ],
    },

    footer: {
      menus: [
        {
          label: 'Travesía',
          forecolor: brand.white,
          bold: true,
          items: [
            { label: 'Quiénes somos', forecolor: brand.mist, bold: false, href: '/quienes-somos', target: '_self' },
            { label: 'Blog', forecolor: brand.mist, bold: false, href: '/blog', target: '_self' },
            {
              label: 'Información legal',
              forecolor: brand.mist,
              bold: false,
              href: '/informacion-legal',
              target: '_self',
            },
          ],
        },
        {
          label: 'Ayuda',
          forecolor: brand.white,
          bold: true,
          items: [
            { label: 'Preguntas frecuentes', forecolor: brand.mist, bold: false, href: '/faq', target: '_self' },
            {
              label: 'Descarga tu certificado',
              forecolor: brand.mist,
              bold: false,
              href: '/certificados',
              target: '_self',
            },
            { label: 'Mi compra', forecolor: brand.mist, bold: false, href: '/mi-compra', target: '_self' },
            {
              label: 'Solicita un reembolso',
              forecolor: brand.mist,
              bold: false,
              href: '/reembolsos',
              target: '_self',
            },
            { label: 'Escríbenos', forecolor: brand.mist, bold: false, href: '/contacto', target: '_self' },
          ],
        },
        {
          label: 'Contacto',
          forecolor: brand.white,
          bold: true,
          items: [
            {
              label: `Emergencias 24/7: ${demoPhones.emergency}`,
              forecolor: brand.coral,
              bold: true,
              href: 'tel:+56226402020',
              target: '_self',
            },
            {
              label: `Mesa central: ${demoPhones.central}`,
              forecolor: brand.mist,
              bold: false,
              href: 'tel:+56226402000',
              target: '_self',
            },
            {
              label: `Desde el extranjero: ${demoPhones.abroad}`,
              forecolor: brand.mist,
              bold: false,
              href: 'tel:+17863472210',
              target: '_self',
            },
            {
              label: 'Portal de empresas',
              forecolor: brand.mist,
              bold: false,
              href: 'https://empresas.travesia.cl',
              target: '_blank',
            },
            {
              label: 'Av. Apoquindo 4501, Las Condes · Lunes a viernes de 9:00 a 18:00',
              forecolor: brand.mist,
              bold: false,
              href: '/contactanos',
              target: '_self',
            },
          ],
        },
      ],
      socialMedia: [
        { icon: '/img/social/facebook.svg', href: 'https://www.facebook.com/travesia.cl', target: '_blank' },
        { icon: '/img/social/instagram.svg', href: 'https://www.instagram.com/travesia.cl', target: '_blank' },
        { icon: '/img/social/linkedin.svg', href: 'https://www.linkedin.com/company/travesia-cl', target: '_blank' },
        { icon: '/img/social/youtube.svg', href: 'https://www.youtube.com/@travesiacl', target: '_blank' },
        { icon: '/img/social/x.svg', href: 'https://x.com/travesia_cl', target: '_blank' },
      ],
      logo: '/img/logo-white.svg',
      copyright: 'Travesía Asistencia en Viaje SpA. Todos los derechos reservados.',
      background: brand.tealDark,
      usaSuscription: true,
      usaSocialNetwork: true,
    },

    website: {
      companyScriptTags: [
        // <script>window.travesiaMarketing = true;</script>
        { customScript: 'PHNjcmlwdD53aW5kb3cudHJhdmVzaWFNYXJrZXRpbmcgPSB0cnVlOzwvc2NyaXB0Pg==', isBodyScript: true },
      ],
      configuration: {
        isWhatsappWidgetEnabled: true,
        whatsappNumber: demoPhones.whatsappEmergency,
        certificates: {
          identityType: 'rut',
          generalConditionsUrl: '/terminos',
          activationProcedureUrl: '/faq',
        },
        assistance: { abroadPhone: demoPhones.abroad, whatsapp: demoPhones.whatsappEmergency },
      },
      home: {
        socialQuotes: [
          {
            author: 'Camila Rojas',
            location: 'Santiago',
            quote:
              'Me torcí el tobillo en Lisboa y en menos de una hora tenía hora con un traumatólogo. No pagué nada y me atendieron en español por WhatsApp.',
            rating: 5,
          },
          {
            author: 'Felipe Muñoz',
            location: 'Concepción',
            quote:
              'Se perdió mi maleta en una escala en São Paulo. Travesía me ayudó con el reclamo a la aerolínea y me reembolsó la ropa que tuve que comprar.',
            rating: 5,
          },
          {
            author: 'Javiera Soto',
            location: 'Viña del Mar',
            quote:
              'Compré el plan Schengen para mi intercambio en Madrid. El certificado llegó al correo al tiro y lo presenté sin problemas en el consulado.',
            rating: 5,
          },
          {
            author: 'Rodrigo y Marcela Pizarro',
            location: 'La Serena',
            quote:
              'Viajamos con nuestros papás de 78 y 80 años a Cancún. El plan Senior nos dio tranquilidad; el proceso de compra fue simple y pagamos en cuotas.',
            rating: 4,
          },
          {
            author: 'Tomás Fuentes',
            location: 'Puerto Montt',
            quote:
              'Tuve que cancelar un viaje a Mendoza por una cirugía de mi hija. Presenté los documentos en línea y el reembolso llegó en diez días hábiles.',
            rating: 4,
          },
        ],
        blogCategories: [
          {
            id: 1,
            label: 'Consejos de viaje',
            articles: [
              {
                id: 1,
                title: 'Qué llevar en el equipaje de mano en un vuelo largo',
                summary:
                  'Remedios, cargadores, una muda de ropa y copias de tus documentos: la lista que te salva si tu maleta no llega contigo.',
                image: '/img/blog/equipaje-de-mano.svg',
                publishedAt: '2026-01-12T09:00:00-03:00',
              },
              {
                id: 2,
                title: 'Viajar con niños: checklist antes de salir de Chile',
                summary:
                  'Permiso notarial, pasaporte vigente, vacunas y qué hacer si tu hijo se enferma en el extranjero.',
                image: '/img/blog/viajar-con-ninos.svg',
                publishedAt: '2026-02-03T09:00:00-03:00',
              },
              {
                id: 3,
                title: 'Pasaporte, visas y permisos: los trámites que no puedes olvidar',
                summary:
                  'Revisa con tiempo la vigencia de tu pasaporte y los requisitos de entrada de cada país antes de comprar tus pasajes.',
                image: '/img/blog/tramites-antes-de-viajar.svg',
                publishedAt: '2026-03-18T09:00:00-03:00',
              },
            ],
          },
          {
            id: 2,
            label: 'Destinos',
            articles: [
              {
                id: 4,
                title: 'Primer viaje a Europa: cómo recorrer el espacio Schengen',
                summary:
                  'Cuántos días puedes quedarte, qué cobertura médica te pueden exigir en la frontera y cómo moverte entre países.',
                image: '/img/blog/europa-schengen.svg',
                publishedAt: '2026-01-26T09:00:00-03:00',
              },
              {
                id: 5,
                title: 'Mundial 2026: qué considerar si viajas a Estados Unidos, México o Canadá',
                summary:
                  'Costos médicos, visas y traslados entre sedes: lo que conviene saber antes de partir a alentar a la selección de tu corazón.',
                image: '/img/blog/mundial-2026.svg',
                publishedAt: '2026-04-07T09:00:00-04:00',
              },
              {
                id: 6,
                title: 'Ruta por la Patagonia argentina: consejos para cruzar la frontera en auto',
                summary:
                  'Documentos del vehículo, seguro obligatorio y los pasos fronterizos más usados desde Coyhaique y Punta Arenas.',
                image: '/img/blog/patagonia.svg',
                publishedAt: '2026-05-14T09:00:00-04:00',
              },
            ],
          },
          {
            id: 3,
            label: 'Asistencia y coberturas',
            articles: [
              {
                id: 7,
                title: 'Cómo pedir un reembolso paso a paso',
                summary:
                  'Boletas, informe médico y datos bancarios: te explicamos qué documentos reunir para que tu reembolso no se atrase.',
                image: '/img/blog/como-pedir-un-reembolso.svg',
                publishedAt: '2026-02-20T09:00:00-03:00',
              },
              {
                id: 8,
                title: '¿Basta con la asistencia de tu tarjeta de crédito?',
                summary:
                  'Comparamos topes, exclusiones y requisitos de activación de los beneficios de tarjetas con un plan de asistencia.',
                image: '/img/blog/tarjeta-de-credito.svg',
                publishedAt: '2026-06-02T09:00:00-04:00',
              },
            ],
          },
        ],
        coverages: [
          {
            icon: '/img/icons/medical.svg',
            title: 'Asistencia médica',
            description:
              'Consultas, hospitalización, exámenes y medicamentos por accidente o enfermedad, con red de prestadores en todo el mundo.',
          },
          {
            icon: '/img/icons/virus.svg',
            title: 'COVID-19',
            description:
              'Atención médica y gastos de hotel por cuarentena indicada por un médico si te contagias durante el viaje.',
          },
          {
            icon: '/img/icons/luggage.svg',
            title: 'Equipaje',
            description: 'Compensación por pérdida de equipaje despachado y apoyo para ubicarlo junto a la aerolínea.',
          },
          {
            icon: '/img/icons/calendar-x.svg',
            title: 'Cancelación de viaje',
            description:
              'Te devolvemos los gastos no reembolsables si debes cancelar por enfermedad, accidente u otras causas justificadas.',
          },
          {
            icon: '/img/icons/plane.svg',
            title: 'Repatriación',
            description:
              'Traslado sanitario a Chile cuando el equipo médico lo indica, y regreso anticipado por emergencia familiar.',
          },
          {
            icon: '/img/icons/scale.svg',
            title: 'Asistencia legal',
            description:
              'Orientación de abogados y adelanto de fianzas si enfrentas un problema legal durante tu viaje.',
          },
        ],
      },
    },

    marketing: {
      promotions: [
        {
          title: 'Verano 2027: 15 % de descuento en Travesía Plus y Premium',
          description:
            'Cotiza tu viaje de vacaciones con cobertura médica desde USD 60.000 y paga hasta en 6 cuotas sin interés con Webpay.',
          image: '/img/promo/verano.svg',
          href: '/cotizador',
          validUntil: '2027-02-28T23:59:59-03:00',
        },
        {
          title: 'Plan Anual: viaja todo el año con un solo pago',
          description:
            'Si sales de Chile más de tres veces al año, el plan anual multiviaje te cubre en cada salida de hasta 60 días.',
          image: '/img/promo/anual.svg',
          href: '/cotizador',
          validUntil: '2027-06-30T23:59:59-04:00',
        },
      ],
    },

    'company-info': {
      description: {
        descriptions:
          'Travesía es una compañía chilena de asistencia en viaje. Desde 2014 acompañamos a personas, familias y empresas que salen de Chile, con atención en español las 24 horas y una red de prestadores en más de 150 países.',
        customHtml:
          '<p>Más de <strong>350.000 viajeros</strong> han confiado en nosotros. Atendemos cada caso con un equipo médico propio y coordinadores que hablan tu idioma.</p>',
        image: '/img/about/company.svg',
      },
      descriptionCompany: {
        descriptionCom:
          'Nacimos en Santiago con una idea simple: que ningún chileno quede solo frente a una emergencia lejos de casa. Hoy operamos una central de asistencia propia en Las Condes y trabajamos con aseguradoras reguladas por la Comisión para el Mercado Financiero.',
        customHtml:
          '<p>Nuestra central funciona los 365 días del año y responde en promedio en menos de dos minutos.</p>',
      },
      providers: {
        descriptionProviders:
          'Trabajamos con hospitales, clínicas, empresas de traslado sanitario y estudios jurídicos seleccionados por su calidad de atención y su cercanía a los destinos preferidos por los viajeros chilenos.',
        customHtml:
          '<p>Cada prestador se evalúa una vez al año según tiempos de respuesta y satisfacción de los pacientes.</p>',
        descriptionsLogoProvider: 'Algunos de nuestros prestadores',
      },
      descriptionsLogoProviders: 'Una red de prestadores en más de 150 países',
      logos: [
        { logo: '/img/providers/red-medica-andina.svg', label: 'Red Médica Andina' },
        { logo: '/img/providers/aerorescate-sur.svg', label: 'AeroRescate Sur' },
        { logo: '/img/providers/pacifico-asistencia.svg', label: 'Pacífico Asistencia' },
        { logo: '/img/providers/clinicas-del-mundo.svg', label: 'Clínicas del Mundo' },
        { logo: '/img/providers/legalviaje.svg', label: 'LegalViaje Internacional' },
        { logo: '/img/providers/condor-equipajes.svg', label: 'Cóndor Equipajes' },
      ],
      workTeam: {
        descriptionWorkTeam:
          'Somos más de 120 personas entre médicos, enfermeras, coordinadores de asistencia, abogados y especialistas en atención al cliente.',
        customHtml: '<p>El 80 % de nuestro equipo de asistencia habla al menos dos idiomas.</p>',
      },
      useValuesCare: true,
      valuesCare: {
        html: '<ul><li><strong>Cercanía:</strong> te hablamos claro y en tu idioma.</li><li><strong>Rapidez:</strong> una emergencia no puede esperar.</li><li><strong>Transparencia:</strong> coberturas y exclusiones explicadas sin letra chica.</li><li><strong>Compromiso:</strong> acompañamos cada caso hasta que vuelves a casa.</li></ul>',
      },
      map: {
        latitude: -33.411,
        longitude: -70.578,
        embedUrl:
          'https://www.openstreetmap.org/export/embed.html?bbox=-70.5880%2C-33.4170%2C-70.5680%2C-33.4050&layer=mapnik&marker=-33.4110%2C-70.5780',
      },
    },

    mission: {
      label:
        'Acompañar a cada persona que viaja desde Chile con asistencia médica, legal y personal oportuna, humana y en su idioma, para que una emergencia nunca arruine su viaje.',
      banner: '/img/about/mission.svg',
    },

    vision: {
      label:
        'Ser la compañía de asistencia en viaje más confiable de Latinoamérica, reconocida por resolver cada caso con rapidez, transparencia y cercanía.',
      banner: '/img/about/vision.svg',
    },
  },

  origins: [{ id: 1, label: 'Chile' }],

  modalities: [
    {
      id: 1,
      code: 'single-trip',
      label: 'Viaje único',
      addDays: 7,
      returnDateEnabled: true,
      returnAddDays: 7,
      minDays: 1,
      maxDays: 180,
    },
    {
      id: 2,
      code: 'annual-multi-trip',
      label: 'Anual multiviaje',
      addDays: 364,
      returnDateEnabled: false,
      returnAddDays: 364,
      minDays: 365,
      maxDays: 365,
    },
    {
      id: 3,
      code: 'long-stay',
      label: 'Larga estadía',
      addDays: 90,
      returnDateEnabled: true,
      returnAddDays: 90,
      minDays: 61,
      maxDays: 365,
    },
  ],

  countries: [
    { id: 1, isoCode: 'AR', label: 'Argentina' },
    { id: 2, isoCode: 'BO', label: 'Bolivia' },
    { id: 3, isoCode: 'BR', label: 'Brasil' },
    { id: 4, isoCode: 'CO', label: 'Colombia' },
    { id: 5, isoCode: 'EC', label: 'Ecuador' },
    { id: 6, isoCode: 'PE', label: 'Perú' },
    { id: 7, isoCode: 'PY', label: 'Paraguay' },
    { id: 8, isoCode: 'UY', label: 'Uruguay' },
    { id: 9, isoCode: 'VE', label: 'Venezuela' },
    { id: 10, isoCode: 'US', label: 'Estados Unidos' },
    { id: 11, isoCode: 'CA', label: 'Canadá' },
    { id: 12, isoCode: 'MX', label: 'México' },
    { id: 13, isoCode: 'CR', label: 'Costa Rica' },
    { id: 14, isoCode: 'PA', label: 'Panamá' },
    { id: 15, isoCode: 'DO', label: 'República Dominicana' },
    { id: 16, isoCode: 'CU', label: 'Cuba' },
    { id: 17, isoCode: 'ES', label: 'España' },
    { id: 18, isoCode: 'FR', label: 'Francia' },
    { id: 19, isoCode: 'IT', label: 'Italia' },
    { id: 20, isoCode: 'DE', label: 'Alemania' },
    { id: 21, isoCode: 'PT', label: 'Portugal' },
    { id: 22, isoCode: 'GB', label: 'Reino Unido' },
    { id: 23, isoCode: 'NL', label: 'Países Bajos' },
    { id: 24, isoCode: 'BE', label: 'Bélgica' },
    { id: 25, isoCode: 'CH', label: 'Suiza' },
    { id: 26, isoCode: 'AT', label: 'Austria' },
    { id: 27, isoCode: 'GR', label: 'Grecia' },
    { id: 28, isoCode: 'IE', label: 'Irlanda' },
    { id: 29, isoCode: 'HR', label: 'Croacia' },
    { id: 30, isoCode: 'JP', label: 'Japón' },
    { id: 31, isoCode: 'CN', label: 'China' },
    { id: 32, isoCode: 'KR', label: 'Corea del Sur' },
    { id: 33, isoCode: 'TH', label: 'Tailandia' },
    { id: 34, isoCode: 'VN', label: 'Vietnam' },
    { id: 35, isoCode: 'IN', label: 'India' },
    { id: 36, isoCode: 'SG', label: 'Singapur' },
    { id: 37, isoCode: 'ID', label: 'Indonesia' },
    { id: 38, isoCode: 'AU', label: 'Australia' },
    { id: 39, isoCode: 'NZ', label: 'Nueva Zelanda' },
    { id: 40, isoCode: 'ZA', label: 'Sudáfrica' },
    { id: 41, isoCode: 'MA', label: 'Marruecos' },
    { id: 42, isoCode: 'EG', label: 'Egipto' },
    { id: 43, isoCode: 'AE', label: 'Emiratos Árabes Unidos' },
    { id: 44, isoCode: 'IL', label: 'Israel' },
    { id: 45, isoCode: 'TR', label: 'Turquía' },
  ],

  destinations: [
    { id: 1, code: 'south-america', label: 'Sudamérica', modalityIds: [1, 2, 3], countryIsoCodes: southAmerica },
    {
      id: 2,
      code: 'north-america',
      label: 'Norteamérica y el Caribe',
      modalityIds: [1, 3],
      countryIsoCodes: northAmerica,
    },
    { id: 3, code: 'europe', label: 'Europa', modalityIds: [1, 3], countryIsoCodes: europe },
    { id: 4, code: 'asia', label: 'Asia', modalityIds: [1, 3], countryIsoCodes: asia },
    { id: 5, code: 'oceania', label: 'Oceanía', modalityIds: [1, 3], countryIsoCodes: oceania },
    {
      id: 6,
      code: 'africa-middle-east',
      label: 'África y Medio Oriente',
      modalityIds: [1, 3],
      countryIsoCodes: africaMiddleEast,
    },
    {
      id: 7,
      code: 'worldwide',
      label: 'Todo el mundo',
      modalityIds: [1, 2, 3],
      countryIsoCodes: [...southAmerica, ...northAmerica, ...europe, ...asia, ...oceania, ...africaMiddleEast],
    },
  ],

  passengerTypes: [
    { id: 1, label: 'Pasajero de 0 a 74 años', ageFrom: 0, ageTo: 74 },
    { id: 2, label: 'Pasajero de 75 a 84 años', ageFrom: 75, ageTo: 84 },
    { id: 3, label: 'Pasajero de 85 años o más', ageFrom: 85, ageTo: 120 },
  ],

  products: demoPlans,
  discountCodes: demoDiscountCodes,
  addOns: demoAddOns,

  exchangeRate: { fromCurrency: 'USD', toCurrency: 'CLP', rate: '948.5300' },

  faqs: [
    // Compra y pago
    {
      category: 'Compra y pago',
      question: '¿Cómo compro un plan de asistencia en viaje?',
      answer:
        '<p>Ingresa al cotizador, indica tu destino, las fechas del viaje y la edad de cada pasajero. Elige el plan que más te acomode, completa los datos de los viajeros y paga en línea. Todo el proceso toma menos de cinco minutos.</p>',
    },
    {
      category: 'Compra y pago',
      question: '¿Qué medios de pago aceptan?',
      answer:
        '<p>Puedes pagar con Webpay Plus usando:</p><ul><li>Tarjetas de crédito, con hasta 6 cuotas sin interés.</li><li>Tarjetas de débito y prepago.</li></ul><p>Los precios se expresan en dólares y se cobran en pesos chilenos según el tipo de cambio del día informado en el cotizador.</p>',
    },
    {
      category: 'Compra y pago',
      question: '¿Con cuánta anticipación debo comprar mi plan?',
      answer:
        '<p>Puedes comprarlo hasta el mismo día de tu salida, siempre que aún estés en Chile. Si quieres la cobertura de cancelación, te recomendamos comprarlo apenas reserves tus pasajes.</p>',
    },
    {
      category: 'Compra y pago',
      question: '¿Puedo comprar un plan para otra persona?',
      answer:
        '<p>Sí. Quien paga no necesita ser pasajero. Solo debes ingresar el nombre, RUT o pasaporte y la fecha de nacimiento de cada viajero.</p>',
    },
    {
      category: 'Compra y pago',
      question: '¿Puedo modificar o anular mi compra?',
      answer:
        '<p>Puedes cambiar las fechas o anular el plan sin costo antes de que comience la vigencia. Escríbenos a <strong>ventas@travesia.cl</strong> con tu número de certificado.</p>',
    },
    // Coberturas
    {
      category: 'Coberturas',
      question: '¿Qué plan necesito para viajar a Europa?',
      answer:
        '<p>Los países del espacio Schengen exigen una cobertura médica mínima de <strong>€30.000</strong> para toda la estadía. Todos nuestros planes para Europa cumplen ese requisito y el certificado indica el monto en euros.</p>',
    },
    {
      category: 'Coberturas',
      question: '¿Qué incluye la asistencia médica?',
      answer:
        '<ul><li>Consultas médicas y de especialistas.</li><li>Hospitalización, cirugías y exámenes.</li><li>Medicamentos recetados.</li><li>Atención odontológica de urgencia.</li><li>Telemedicina las 24 horas.</li></ul>',
    },
    {
      category: 'Coberturas',
      question: '¿Cubren enfermedades preexistentes?',
      answer:
        '<p>Los planes Plus, Premium y Senior cubren la atención de urgencia por una enfermedad preexistente hasta el tope indicado en las condiciones. Los controles y tratamientos programados no están cubiertos.</p>',
    },
    {
      category: 'Coberturas',
      question: '¿Los planes cubren COVID-19?',
      answer:
        '<p>Sí. Cubrimos la atención médica por COVID-19 como cualquier otra enfermedad y, en los planes Plus y Premium, los gastos de hotel por una cuarentena indicada por un médico.</p>',
    },
    {
      category: 'Coberturas',
      question: '¿Hay un plan para mayores de 75 años?',
      answer:
        '<p>Sí. Travesía Senior está pensado para pasajeros de 75 años o más, sin límite superior de edad, con coberturas médicas ajustadas a cada tramo.</p>',
    },
    // Durante el viaje
    {
      category: 'Durante el viaje',
      question: '¿Qué hago si tengo una emergencia médica?',
      answer:
        '<p>Antes de ir a un centro médico, contáctanos por WhatsApp al <strong>+56 9 4000 2000</strong> o llama a la central 24/7 al <strong>+56 (2) 2640 2020</strong>. Te indicaremos el prestador más cercano y coordinaremos la atención sin que tengas que pagar.</p>',
    },
    {
      category: 'Durante el viaje',
      question: '¿Y si no puedo comunicarme antes de atenderme?',
      answer:
        '<p>En una urgencia grave, atiéndete primero. Avísanos dentro de las 24 horas siguientes y guarda boletas, recetas e informe médico para solicitar el reembolso.</p>',
    },
    {
      category: 'Durante el viaje',
      question: '¿Qué hago si la aerolínea pierde mi equipaje?',
      answer:
        '<p>Antes de salir del aeropuerto, haz el reclamo en el mesón de la aerolínea y pide el formulario PIR. Luego envíanos una copia junto a tu tarjeta de embarque y el ticket del equipaje.</p>',
    },
    {
      category: 'Durante el viaje',
      question: '¿Puedo extender mi plan si alargo el viaje?',
      answer:
        '<p>Sí, siempre que lo solicites antes de que termine la vigencia. Escríbenos por WhatsApp con tu número de certificado y las nuevas fechas.</p>',
    },
    // Reembolsos y certificados
    {
      category: 'Reembolsos y certificados',
      question: '¿Cómo recibo mi certificado?',
      answer:
        '<p>Te enviamos el certificado por e-mail apenas se confirma el pago. También puedes descargarlo cuando quieras desde la sección Certificados con tu RUT o número de pasaporte.</p>',
    },
    {
      category: 'Reembolsos y certificados',
      question: '¿Cómo solicito un reembolso?',
      answer:
        '<p>Completa el formulario de la sección Reembolsos y adjunta:</p><ul><li>Boletas o facturas originales.</li><li>Informe médico con el diagnóstico.</li><li>Recetas de los medicamentos.</li><li>Datos de una cuenta bancaria en Chile.</li></ul>',
    },
    {
      category: 'Reembolsos y certificados',
      question: '¿Cuánto demora un reembolso?',
      answer:
        '<p>Una vez que recibimos todos los documentos, el reembolso se deposita en un plazo de hasta 15 días hábiles, en pesos chilenos al tipo de cambio del día del pago.</p>',
    },
    {
      category: 'Reembolsos y certificados',
      question: '¿El certificado sirve para la embajada o el consulado?',
      answer:
        '<p>Sí. El certificado incluye los nombres de los pasajeros, la vigencia, el destino y los montos de cobertura en dólares y euros, tal como lo piden los consulados.</p>',
    },
  ],

  subjects: [
    { id: 1, label: 'Cotización y compra' },
    { id: 2, label: 'Reembolsos' },
    { id: 3, label: 'Certificados' },
    { id: 4, label: 'Reclamos' },
    { id: 5, label: 'Empresas y convenios' },
    { id: 6, label: 'Otros' },
  ],

  contactInfos: [
    {
      label: 'Emergencias en viaje 24/7',
      phone: demoPhones.emergency,
      whatsapp: demoPhones.whatsappEmergency,
      icon: '/img/icons/lifebuoy.svg',
      isEmergency: true,
      isSaleContact: false,
    },
    {
      label: 'Ventas y cotizaciones',
      phone: demoPhones.sales,
      whatsapp: demoPhones.whatsappSales,
      icon: '/img/icons/cart.svg',
      isEmergency: false,
      isSaleContact: true,
    },
    {
      label: 'Reembolsos',
      phone: demoPhones.refunds,
      whatsapp: null,
      icon: '/img/icons/refund.svg',
      isEmergency: false,
      isSaleContact: false,
    },
    {
      label: 'Servicio al cliente',
      phone: demoPhones.customerService,
      whatsapp: null,
      icon: '/img/icons/headset.svg',
      isEmergency: false,
      isSaleContact: false,
    },
  ],

  contacts: [
    {
      category: 'Asistencia en viaje 24/7',
      label: 'Si estás de viaje y necesitas ayuda, contáctanos antes de acudir a un centro médico.',
      isEmergency: true,
      isSaleContact: false,
      isPrioritized: true,
      phones: [demoPhones.emergency, demoPhones.abroad],
      whatsappPhone1: demoPhones.whatsappEmergency,
      whatsappPhone2: demoPhones.whatsappEmergency2,
      emails: ['asistencia@travesia.cl'],
      urlHref: null,
      urlLabel: null,
      banner: 'Atención en español los 365 días del año, desde cualquier país.',
    },
    {
      category: 'Ventas',
      label: 'Te ayudamos a elegir el plan adecuado para tu viaje, tu familia o tu empresa.',
      isEmergency: false,
      isSaleContact: true,
      isPrioritized: true,
      phones: [demoPhones.sales],
      whatsappPhone1: demoPhones.whatsappSales,
      whatsappPhone2: null,
      emails: ['ventas@travesia.cl'],
      urlHref: '/cotizador',
      urlLabel: 'Cotizar ahora',
      banner: 'Lunes a viernes de 9:00 a 20:00 y sábados de 10:00 a 14:00.',
    },
    {
      category: 'Reembolsos',
      label: 'Consultas sobre el estado de tu solicitud de reembolso.',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [demoPhones.refunds],
      whatsappPhone1: null,
      whatsappPhone2: null,
      emails: ['reembolsos@travesia.cl'],
      urlHref: '/reembolsos',
      urlLabel: 'Solicitar reembolso',
      banner: null,
    },
    {
      category: 'Certificados',
      label: 'Duplicados, correcciones de datos y certificados para consulados.',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [demoPhones.customerService],
      whatsappPhone1: null,
      whatsappPhone2: null,
      emails: ['certificados@travesia.cl'],
      urlHref: '/certificados',
      urlLabel: 'Descargar certificado',
      banner: null,
    },
    {
      category: 'Servicio al cliente',
      label: 'Cambios de fecha, anulaciones, sugerencias y reclamos.',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [demoPhones.customerService, demoPhones.central],
      whatsappPhone1: null,
      whatsappPhone2: null,
      emails: ['clientes@travesia.cl'],
      urlHref: null,
      urlLabel: null,
      banner: null,
    },
    {
      category: 'Empresas y alianzas',
      label: 'Planes corporativos, agencias de viaje y convenios con instituciones.',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [demoPhones.business],
      whatsappPhone1: null,
      whatsappPhone2: null,
      emails: ['empresas@travesia.cl', 'alianzas@travesia.cl'],
      urlHref: 'https://empresas.travesia.cl',
      urlLabel: 'Portal de empresas',
      banner: null,
    },
    {
      category: 'Escríbenos',
      label: '¿Tienes otra consulta? Déjanos tu mensaje y te responderemos dentro de un día hábil.',
      isEmergency: false,
      isSaleContact: false,
      isPrioritized: false,
      phones: [],
      whatsappPhone1: null,
      whatsappPhone2: null,
      emails: ['contacto@travesia.cl'],
      urlHref: '/contacto',
      urlLabel: 'Ir al formulario',
      banner: null,
    },
  ],

  paymentGateways: [
    { id: 'sandbox', name: 'Pago de prueba', logo: '/img/payments/sandbox.svg', url: '/api/payments/sandbox' },
    { id: 'webpay', name: 'Webpay Plus', logo: '/img/payments/webpay.svg', url: 'https://webpay3gint.transbank.cl' },
  ],
};
