/**
 * The banner of a purchase paid on a test gateway (the sandbox, Webpay's integration environment): no money moved and
 * nothing is covered. The buyer's page speaks of all the certificates, a traveller's of her own.
 */
export function TestPaymentNotice({ certificates }: { certificates: 'all' | 'own' }) {
  const covered = certificates === 'all' ? 'los certificados no otorgan' : 'el certificado no otorga';
  return (
    <p className="mb-6 rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
      {`Pago de prueba: no se cobró dinero y ${covered} cobertura.`}
    </p>
  );
}
