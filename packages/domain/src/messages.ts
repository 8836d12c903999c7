/**
 * The texts of spec §8 (error catalogue, English, on the wire) and the Spanish UI messages of spec §5.
 * Kept in one place so the API and the storefront say exactly the same thing.
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
} as const;

/** Spec §8: "A missing required parameter raises an error such as: The parameter 'companyId' must be defined." */
export function parameterMustBeDefined(name: string): string {
  return `The parameter '${name}' must be defined.`;
}

export const uiMessages = {
  required: 'Campo Obligatorio',
  emailFormat: 'Formato de Email incorrecto',
  emailSubscribed: 'El email ha sido suscrito',
  helpModalTitle: '¿Necesitas ayuda o información?',
  subscribeTitle: 'Suscríbete',
  clientAccess: 'Acceso Clientes',
} as const;
