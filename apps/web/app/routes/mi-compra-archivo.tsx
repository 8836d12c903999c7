import { purchaseDocument } from '#app/features/purchases/purchase.server.ts';
import type { Route } from './+types/mi-compra-archivo';

/** /mi-compra/comprobante.pdf and /mi-compra/certificado.pdf: the documents of the purchase this browser opened. */
export const loader = ({ context, request, params }: Route.LoaderArgs) =>
  purchaseDocument(context, request, params.archivo);
