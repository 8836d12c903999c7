import { Link } from 'react-router';
import { OutsideStorePage } from '#app/components/OutsideStorePage.tsx';
import { pageTitle } from '#app/lib/website.ts';

export const meta = () => [
  ...pageTitle('Acceso Clientes'),
  { name: 'description', content: 'El acceso de clientes de Travesía aún no está disponible en este sitio.' },
];

export default function ClientLogin() {
  return (
    <OutsideStorePage title="Acceso Clientes">
      <p>
        El acceso de clientes con usuario y contraseña todavía no está disponible en este sitio: para comprar no
        necesitas una cuenta.
      </p>
      <p>
        Tus certificados están en{' '}
        <Link to="/certificados" className="font-semibold text-brand-700 underline underline-offset-4">
          Certificados
        </Link>{' '}
        (con tu RUT, pasaporte o email) y para cualquier otra gestión, escríbenos.
      </p>
    </OutsideStorePage>
  );
}
