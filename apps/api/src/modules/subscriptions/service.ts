import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import { emailHtml } from '#app/integrations/mail/email-html.ts';
import { jobMessageId, type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import { type AuditActor, csvField, recordAudit } from '#app/modules/audit/service.ts';
import { requireCompany } from '#app/modules/company/service.ts';
import { enqueue, type JobHandler } from '#app/modules/jobs/service.ts';
import * as repository from './repository.ts';

/** The job that e-mails a pending subscription its confirmation link (modules/jobs); its payload is `{ subscriptionId }`. */
export const confirmationEmailKind = 'newsletter-confirmation';
/** How long a confirmation link confirms. */
export const confirmationLinkTtlMs = 7 * 24 * 60 * 60 * 1000;
/** The storefront page a confirmation link opens (apps/web routes/suscripcion-confirmar.tsx). */
export const confirmationPath = '/suscripcion/confirmar';

export const confirmationUrl = (origin: string, token: string) =>
  `${origin}${confirmationPath}?token=${encodeURIComponent(token)}`;

/** The storefront page an unsubscribe link opens, and where a mail client's one-click unsubscribe posts (RFC 8058). */
export const unsubscribePath = '/suscripcion/baja';

const unsubscribeMac = (secret: string, subscriptionId: number) =>
  createHmac('sha256', secret).update(`newsletter-unsubscribe:${subscriptionId}`).digest('base64url');

/**
 * The unsubscribe token of a subscription: its id and an HMAC of it under the links' secret (PURCHASE_LINK_SECRET),
 * so no table keeps one and no other id can be forged. It never expires: a subscriber may leave at any time.
 */
export const unsubscribeToken = (secret: string, subscriptionId: number) =>
  `${subscriptionId}.${unsubscribeMac(secret, subscriptionId)}`;

export const unsubscribeUrl = (origin: string, token: string) =>
  `${origin}${unsubscribePath}?token=${encodeURIComponent(token)}`;

/** The subscription an unsubscribe token names, or null when it was not made with this secret. */
export function subscriptionOfUnsubscribeToken(secret: string, token: string): number | null {
  const match = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const id = Number(match[1]);
  const expected = Buffer.from(unsubscribeMac(secret, id));
  const given = Buffer.from(match[2] ?? '');
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}

/**
 * Unsubscribes the address of a signed unsubscribe link (the page's button, or a mail client's one-click post): the
 * row is removed, pending or confirmed. False when the token is not one of ours; true otherwise, also when the
 * address had already left (a second click, a re-subscription since), so the answer says nothing more.
 */
export async function unsubscribeByLink(db: Database, secret: string, token: string): Promise<boolean> {
  const id = subscriptionOfUnsubscribeToken(secret, token);
  if (id === null) return false;
  await repository.deleteSubscription(db, id);
  return true;
}

/**
 * Newsletter double opt-in. The company was checked by the route-level hook. The address is stored pending and sent
 * a confirmation link (through the job queue, in the same transaction); it becomes a subscriber when the link is
 * opened. Subscribing again is never an error and reveals nothing: a confirmed address stays as it is, a pending one
 * gets at most one more e-mail an hour.
 */
export async function subscribe(db: Database, companyId: number, email: string): Promise<void> {
  await db.transaction(async (tx) => {
    const due = await repository.storePending(tx, {
      companyId,
      email: email.toLowerCase(),
      token: randomBytes(32).toString('base64url'),
      expiresAt: new Date(Date.now() + confirmationLinkTtlMs),
    });
    if (due !== undefined) await enqueue(tx, confirmationEmailKind, { subscriptionId: due });
  });
}

/** The confirmation link was opened: answers whether it confirmed (or had confirmed) a subscription of the company. */
export function confirmSubscription(db: Database, companyId: number, token: string): Promise<boolean> {
  return repository.confirm(db, companyId, token);
}

/** The company's newsletter subscribers: confirmed addresses only. */
export function listSubscribers(db: Database, companyId: number): Promise<string[]> {
  return repository.listConfirmed(db, companyId);
}

/**
 * The confirmation e-mail job: the link to the address that subscribed. Nothing is sent once the address is
 * confirmed. At least once, with a stable Message-ID (the job's).
 */
export function confirmationEmailJob(
  db: Database,
  mailer: Mailer,
  origin: string,
  /** The links' secret that signs the unsubscribe link; without it (a worker set up without «Mi compra») none. */
  unsubscribeSecret: string | undefined,
): JobHandler<{ subscriptionId: number }> {
  return {
    payload: z.object({ subscriptionId: z.number().int().positive() }),
    logFields: ({ subscriptionId }) => ({ subscriptionId }),
    errorFields: mailFailureFields,
    async run({ subscriptionId }, job) {
      const pending = await repository.findPending(db, subscriptionId);
      if (!pending) return { skipped: 'confirmed or gone' };
      const company = await requireCompany(db, pending.companyId);
      const link = confirmationUrl(origin, pending.token);
      const leave = unsubscribeSecret
        ? unsubscribeUrl(origin, unsubscribeToken(unsubscribeSecret, subscriptionId))
        : undefined;
      await mailer.send({
        messageId: jobMessageId('newsletter', job.id, mailer.from),
        to: [pending.email],
        subject: `Confirma tu suscripción a ${company.name}`,
        text: `Hola,\n\nPara recibir nuestras ofertas y consejos de viaje, confirma tu suscripción abriendo este enlace (vale 7 días):\n${link}\n\nSi no te suscribiste tú, ignora este correo: no te escribiremos.${leave ? `\n\nPara darte de baja en cualquier momento: ${leave}` : ''}\n\n${company.name}`,
        html: await emailHtml({
          brand: company.name,
          title: `Confirma tu suscripción a ${company.name}`,
          preview: 'Confirma tu suscripción: el enlace vale 7 días.',
          blocks: [
            { type: 'text', text: 'Hola,' },
            {
              type: 'text',
              text: 'Para recibir nuestras ofertas y consejos de viaje, confirma tu suscripción (el enlace vale 7 días):',
            },
            { type: 'button', href: link, label: 'Confirmar mi suscripción' },
            { type: 'text', text: 'Si no te suscribiste tú, ignora este correo: no te escribiremos.' },
            ...(leave
              ? [
                  {
                    type: 'link' as const,
                    before: '',
                    href: leave,
                    label: 'Darte de baja',
                    after: ' en cualquier momento.',
                  },
                ]
              : []),
            { type: 'text', text: company.name },
          ],
        }),
        attachments: [],
        // RFC 2369 and RFC 8058: mail clients show «Darse de baja» and post to the link in one click.
        ...(leave
          ? { headers: { 'List-Unsubscribe': `<${leave}>`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' } }
          : {}),
      });
      return { destination: mailer.destination };
    },
  };
}

export { listSubscriptions, type SubscriberFilter, type SubscriptionSummary } from './repository.ts';

export const subscriberMessages = { notFound: 'Esa suscripción no existe o ya se dio de baja.' } as const;

const auditView = (row: repository.SubscriptionSummary) => ({
  email: row.email,
  confirmedAt: row.confirmedAt?.toISOString() ?? null,
});

/**
 * Unsubscribes one address from the console (issue 24 screen 6): the row is removed (subscribing again starts a new
 * double opt-in) with one audit row, in one transaction. Of two operators at once, the second gets 404.
 */
export async function unsubscribe(db: Database, actor: AuditActor, id: number, at: Date): Promise<void> {
  await db.transaction(async (tx) => {
    const removed = await repository.deleteSubscription(tx, id);
    if (!removed) throw new ApiError(404, subscriberMessages.notFound);
    await recordAudit(
      tx,
      actor,
      {
        action: 'newsletter.unsubscribe',
        targetType: 'subscription',
        targetId: String(id),
        before: auditView(removed),
        after: null,
      },
      at,
    );
  });
}

/** Records the export of the confirmed subscribers (one audit row), before the CSV is streamed. */
export function recordSubscribersExport(db: Database, actor: AuditActor, filter: { email?: string }, at: Date) {
  return recordAudit(
    db,
    actor,
    { action: 'newsletter.export', targetType: 'subscription', before: null, after: { state: 'confirmed', ...filter } },
    at,
  );
}

/** The confirmed subscribers as CSV (header first), read in pages so a long list never sits in memory at once. */
export async function* subscribersCsv(db: Database, filter: { email?: string }): AsyncGenerator<string> {
  yield 'email,subscribedAt,confirmedAt\r\n';
  let afterId: number | undefined;
  for (;;) {
    const page = await repository.listSubscriptions(db, { ...filter, state: 'confirmed', afterId }, 500);
    if (page.length === 0) return;
    yield page.map((row) => `${[row.email, row.createdAt, row.confirmedAt].map(csvField).join(',')}\r\n`).join('');
    afterId = page.at(-1)?.id;
  }
}
