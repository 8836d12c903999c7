import { errorMessages } from '@travesia/domain/messages';
import { type ContactFormInput, ruleMessages } from '@travesia/domain/rules';
import { z } from 'zod';
import type { Database } from '#app/db/client.ts';
import { ApiError } from '#app/errors.ts';
import type { CaptchaVerifier } from '#app/integrations/captcha/recaptcha.ts';
import { emailHtml } from '#app/integrations/mail/email-html.ts';
import { jobMessageId, type Mailer, mailFailureFields } from '#app/integrations/mail/mailer.ts';
import { type AuditActor, recordAudit } from '#app/modules/audit/service.ts';
import { requireCompany } from '#app/modules/company/service.ts';
import * as content from '#app/modules/content/service.ts';
import { enqueue, type JobHandler } from '#app/modules/jobs/service.ts';
import * as repository from './repository.ts';

/** The job that e-mails a contact request to the company (modules/jobs); its payload is `{ requestId }`. */
export const contactEmailKind = 'contact-email';

/** The path of the contact form: the directory entry that links to it names the company's contact address. */
const contactFormPath = '/contacto';

/**
 * Where a company's contact requests go: CONTACT_FORM_TO when set, else the first e-mail of the contact directory's
 * entry that links to the form (the address /contactanos shows on that card), else the sender's own address, so a
 * request is never left without a reader.
 */
async function contactAddress(db: Database, companyId: number, configured: string | undefined, mailer: Mailer) {
  if (configured) return configured;
  const directory = await content.listContacts(db, companyId, false);
  const formEntry = directory.find((entry) => entry.url?.href === contactFormPath && entry.emails.length > 0);
  const address = formEntry?.emails[0]?.email;
  return address ?? /<([^>]+)>/.exec(mailer.from)?.[1] ?? mailer.from;
}

export type ContactSubmission = {
  companyId: number;
  form: ContactFormInput;
  token: string;
  remoteIp: string | undefined;
};

/**
 * The contact form (spec §7 `POST /companies/{companyId}/contact-forms?reCaptchaToken=`): the subject must be the
 * company's; then the token is verified with Google (once: a token verifies only once, so everything that can be
 * checked without it is checked first); then the request and its e-mail job are stored in one transaction.
 * Throws CaptchaUnavailableError when siteverify gives no verdict: nothing is stored then.
 */
export async function submitContactForm(
  deps: { db: Database; captcha: CaptchaVerifier; mailer: Mailer; contactFormTo: string | undefined },
  submission: ContactSubmission,
): Promise<number> {
  const { db } = deps;
  const { companyId, form } = submission;
  const subjects = await content.listSubjects(db, companyId);
  const subject = subjects.find((s) => s.id === form.idSubject);
  if (!subject) {
    throw new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'idSubject', code: 'not_available', message: ruleMessages.contactSubject },
    ]);
  }
  const recipient = await contactAddress(db, companyId, deps.contactFormTo, deps.mailer);
  const verdict = await deps.captcha.verify(submission.token, submission.remoteIp);
  if (!verdict.ok) {
    throw new ApiError(400, errorMessages.invalidInputParameters, [
      { field: 'reCaptchaToken', code: 'captcha_failed', message: ruleMessages.reCaptchaFailed },
    ]);
  }
  return repository.insertContactRequest(
    db,
    {
      companyId,
      subjectId: subject.id,
      subjectLabel: subject.label,
      fullName: form.fullName,
      email: form.email,
      phone: form.phone,
      detail: form.detail,
      recipient,
    },
    (tx, requestId) => enqueue(tx, contactEmailKind, { requestId }, `contact:${requestId}`),
  );
}

/** What both e-mail jobs of a request share: the payload `{ requestId }`, and what of it and of a failure is logged. */
const requestEmailJob = {
  payload: z.object({ requestId: z.number().int().positive() }),
  logFields: ({ requestId }: { requestId: number }) => ({ requestId }),
  errorFields: mailFailureFields,
};

/** `<contact-{job id}@{sender's domain}>`: the same on every attempt of one e-mail. */
export const contactMessageId = (jobId: number, from: string) => jobMessageId('contact', jobId, from);

/**
 * The contact e-mail job: the visitor's message to the company's contact address, with the visitor as Reply-To so
 * answering it writes to them. At least once, with a stable Message-ID (the job's).
 */
export function contactEmailJob(db: Database, mailer: Mailer): JobHandler<{ requestId: number }> {
  return {
    ...requestEmailJob,
    async run({ requestId }, job) {
      const request = await repository.findContactRequest(db, requestId);
      if (!request) return { skipped: 'request deleted' };
      const received = request.createdAt.toLocaleString('es-CL', { timeZone: 'America/Santiago' });
      const lines: [string, string][] = [
        ['Nombre y apellido', request.fullName],
        ['Email', request.email],
        ['Teléfono', request.phone],
        ['Asunto', request.subjectLabel],
        ['Recibida', received],
      ];
      await mailer.send({
        messageId: contactMessageId(job.id, mailer.from),
        to: [request.recipient],
        replyTo: { name: request.fullName, address: request.email },
        subject: `Solicitud de contacto N° ${request.id}: ${request.subjectLabel}`,
        text: `Nueva solicitud recibida en el formulario de contacto.\n\n${lines.map(([label, value]) => `${label}: ${value}`).join('\n')}\n\nMensaje:\n${request.detail}\n\nResponde este correo para escribirle a ${request.fullName}.`,
        html: await emailHtml({
          brand: (await requireCompany(db, request.companyId)).name,
          title: `Solicitud de contacto N° ${request.id}`,
          preview: `${request.fullName}: ${request.subjectLabel}`,
          blocks: [
            { type: 'text', text: 'Nueva solicitud recibida en el formulario de contacto.' },
            { type: 'rows', rows: lines },
            { type: 'text', text: 'Mensaje:', strong: true },
            { type: 'quote', text: request.detail },
            { type: 'text', text: `Responde este correo para escribirle a ${request.fullName}.` },
          ],
        }),
        attachments: [],
      });
      return { destination: mailer.destination };
    },
  };
}

export {
  type ContactRequestRow,
  type ContactRequestState,
  contactRequestStates,
  countUnansweredBefore,
  findContactRequest,
  listContactRequests,
} from './repository.ts';

/** The job that e-mails a console reply to the visitor (modules/jobs); its payload is `{ requestId }`. */
export const contactReplyEmailKind = 'contact-reply-email';

export const contactMessages = {
  notFound: 'No existe esa solicitud de contacto.',
  alreadyClosed: (row: repository.ContactRequestRow) =>
    `${row.closedByName ?? row.closedByLabel ?? 'Otra persona'} ya ${row.state === 'answered' ? 'respondió' : 'marcó como atendida'} esta solicitud. Recarga la página para verla.`,
} as const;

/** Who closes a request: the console's session (operator id, name, e-mail) or API key, never a typed name. */
export type Closer = { actor: AuditActor; name: string | null };

/** What the audit trail keeps of a request's state, before and after an action. */
const auditState = (row: repository.ContactRequestRow) => ({
  state: row.state,
  reply: row.reply,
  closedAt: row.closedAt?.toISOString() ?? null,
  closedByOperatorId: row.closedByOperatorId,
  closedByLabel: row.closedByLabel,
});

/**
 * Replies to (`reply` given) or marks handled an unanswered request (issue 24 screen 5). In one transaction: the
 * conditional update, the reply's e-mail job, and one audit row with before and after. Of two operators at once one
 * wins; the other gets 409 saying who did it.
 */
export async function closeContactRequest(
  db: Database,
  closer: Closer,
  id: number,
  reply: string | null,
  at: Date,
): Promise<repository.ContactRequestRow> {
  return db.transaction(async (tx) => {
    const closed = await repository.closeContactRequest(tx, id, {
      state: reply === null ? 'handled' : 'answered',
      reply,
      at,
      operatorId: closer.actor.operatorId ?? null,
      name: closer.name,
      label: closer.actor.label,
    });
    if (!closed) {
      const current = await repository.findContactRequest(tx, id);
      if (!current) throw new ApiError(404, contactMessages.notFound);
      const message = contactMessages.alreadyClosed(current);
      throw new ApiError(409, message, [{ field: 'state', code: 'stale', message }]);
    }
    if (reply !== null) await enqueue(tx, contactReplyEmailKind, { requestId: id }, `contact-reply:${id}`);
    await recordAudit(
      tx,
      closer.actor,
      {
        action: reply === null ? 'contact.handled' : 'contact.reply',
        targetType: 'contact_request',
        targetId: String(id),
        before: { state: 'unanswered' },
        after: auditState(closed),
      },
      at,
    );
    return closed;
  });
}

/**
 * The reply e-mail job: the operator's reply to the visitor, from the company's sender, with the company's contact
 * address (where the request was mailed) as Reply-To, so the visitor's answer reaches the whole team rather than one
 * operator. Their message is quoted below. At least once, with a stable Message-ID (the job's).
 */
export function contactReplyEmailJob(db: Database, mailer: Mailer): JobHandler<{ requestId: number }> {
  return {
    ...requestEmailJob,
    async run({ requestId }, job) {
      const request = await repository.findContactRequest(db, requestId);
      if (!request?.reply) return { skipped: 'no reply' };
      const company = await requireCompany(db, request.companyId);
      const received = request.createdAt.toLocaleString('es-CL', { timeZone: 'America/Santiago' });
      const quoted = request.detail
        .split('\n')
        .map((line) => `> ${line}`)
        .join('\n');
      await mailer.send({
        messageId: jobMessageId('contact-reply', job.id, mailer.from),
        to: [request.email],
        replyTo: { name: company.name, address: request.recipient },
        subject: `Re: Solicitud de contacto N° ${request.id}: ${request.subjectLabel}`,
        text: `Hola ${request.fullName}:\n\n${request.reply}\n\n${company.name}\n\nEl ${received} escribiste:\n${quoted}`,
        html: await emailHtml({
          brand: company.name,
          title: `Re: Solicitud de contacto N° ${request.id}`,
          preview: request.reply.split('\n')[0] ?? '',
          blocks: [
            { type: 'text', text: `Hola ${request.fullName}:` },
            { type: 'text', text: request.reply },
            { type: 'text', text: company.name },
            { type: 'text', text: `El ${received} escribiste:` },
            { type: 'quote', text: request.detail },
          ],
        }),
        attachments: [],
      });
      return { destination: mailer.destination };
    },
  };
}
