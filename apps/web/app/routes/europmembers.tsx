import { Link } from 'react-router';
import { OutsideStorePage } from '#app/components/OutsideStorePage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => [
  ...pageTitle('Área exclusiva de miembros'),
  { name: 'description', content: 'El área exclusiva de miembros de Travesía aún no está disponible en este sitio.' },
];

export default function EuropMembers() {
  return (
    <OutsideStorePage title="Área exclusiva de miembros">
      <p>
        El área exclusiva de miembros todavía no está disponible en este sitio. Si eres miembro y necesitas tus
        beneficios, un certificado o ayuda con un viaje, escríbenos y te respondemos a la brevedad.
      </p>
      <p>
        Mientras tanto puedes{' '}
        <Link to="/cotizador" className="font-semibold text-brand-700 underline underline-offset-4">
          cotizar tu asistencia en viaje
        </Link>{' '}
        o revisar las{' '}
        <Link to="/faq" className="font-semibold text-brand-700 underline underline-offset-4">
          preguntas frecuentes
        </Link>
        .
      </p>
    </OutsideStorePage>
  );
}
