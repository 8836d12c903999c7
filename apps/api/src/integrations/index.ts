import { join } from 'node:path';
import type { Config } from '#app/config.ts';
import type { Database } from '#app/db/client.ts';
import { sandboxLedger } from '#app/modules/payments/sandbox-ledger.ts';
import { type CaptchaVerifier, recaptchaVerifier } from './captcha/recaptcha.ts';
import { createDocumentStore, type DocumentStore } from './document-store/index.ts';
import { createExchangeRateSource, type ExchangeRateSource } from './exchange-rates/index.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import type { PaymentGateway } from './payments/gateway.ts';
import { sandboxGateway, sandboxGatewayId } from './payments/sandbox.ts';
import { webpayGateway } from './payments/webpay.ts';
import { type LocalTaxDocumentsStore, localTaxDocuments } from './tax-documents/local.ts';
import { openFactura } from './tax-documents/openfactura.ts';
import type { TaxDocumentProvider } from './tax-documents/provider.ts';

export type Integrations = {
  mailer: Mailer;
  gateways: Map<string, PaymentGateway>;
  captcha: CaptchaVerifier;
  documentStore: DocumentStore;
  /** Where the worker fetches the USD→CLP rate (EXCHANGE_RATE_SOURCE); none when rates are entered by hand only. */
  exchangeRateSource: ExchangeRateSource | undefined;
  /** Who issues the tax documents (TAX_DOCUMENTS_PROVIDER); none with `external`: the store issues none. */
  taxDocuments: TaxDocumentProvider | undefined;
};

/**
 * The integrations the configuration chooses, shared by the web process and the worker. `localTaxStore`: where the
 * local tax-document adapter keeps its folios and documents (modules/tax-documents localProviderStore).
 */
export function createIntegrations(
  config: Config,
  db: Database,
  localTaxStore?: (documentStore: DocumentStore) => LocalTaxDocumentsStore,
): Integrations {
  const mailer = createMailer({ ...config.mail, outboxDir: join(config.dataDir, 'outbox') });
  const gateways = new Map<string, PaymentGateway>([['webpay', webpayGateway(config.webpay)]]);
  // The test gateway approves without money: never next to Webpay's production environment.
  if (config.payments.sandboxEnabled) gateways.set(sandboxGatewayId, sandboxGateway(db, sandboxLedger));
  const documentStore = createDocumentStore(config.documents);
  const tax = config.taxDocuments;
  const taxDocuments =
    tax.provider === 'local'
      ? localTaxDocuments(tax.issuer, localTaxStore?.(documentStore))
      : tax.provider === 'openfactura'
        ? openFactura({ baseUrl: tax.baseUrl, apiKey: tax.apiKey, issuer: tax.issuer })
        : undefined;
  return {
    mailer,
    gateways,
    captcha: recaptchaVerifier(config.recaptcha),
    documentStore,
    exchangeRateSource: createExchangeRateSource(config.exchangeRates),
    taxDocuments,
  };
}
