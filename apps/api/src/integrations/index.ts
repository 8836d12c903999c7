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

export type Integrations = {
  mailer: Mailer;
  gateways: Map<string, PaymentGateway>;
  captcha: CaptchaVerifier;
  documentStore: DocumentStore;
  /** Where the worker fetches the USD→CLP rate (EXCHANGE_RATE_SOURCE); none when rates are entered by hand only. */
  exchangeRateSource: ExchangeRateSource | undefined;
};

/** The integrations the configuration chooses, shared by the web process and the worker. */
export function createIntegrations(config: Config, db: Database): Integrations {
  const mailer = createMailer({ ...config.mail, outboxDir: join(config.dataDir, 'outbox') });
  const gateways = new Map<string, PaymentGateway>([['webpay', webpayGateway(config.webpay)]]);
  // The test gateway approves without money: never next to Webpay's production environment.
  if (config.payments.sandboxEnabled) gateways.set(sandboxGatewayId, sandboxGateway(db, sandboxLedger));
  return {
    mailer,
    gateways,
    captcha: recaptchaVerifier(config.recaptcha),
    documentStore: createDocumentStore(config.documents),
    exchangeRateSource: createExchangeRateSource(config.exchangeRates),
  };
}
