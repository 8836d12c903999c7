import { describe, expect, it } from 'vitest';
import type { ContactDetail, ContactSummary, Subscriber } from '#app/features/contact.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { ContactInboxView, loader as inboxLoader } from './contacto.tsx';
import {
  type ContactRequestResult,
  ContactRequestView,
  action as requestAction,
  loader as requestLoader,
} from './contacto-solicitud.tsx';
import {
  type NewsletterResult,
  NewsletterView,
  action as newsletterAction,
  loader as newsletterLoader,
} from './newsletter.tsx';

const unanswered: ContactSummary = {
  id: 41,
  receivedAt: '2026-11-27T12:00:00.000Z',
  fullName: 'Camila Rojas',
  email: 'camila@example.cl',
  subject: 'Certificados',
  state: 'unanswered',
  closedAt: null,
  closedBy: null,
};
const answered: ContactSummary = {
  ...unanswered,
  id: 40,
  state: 'answered',
  closedAt: '2026-11-27T14:00:00.000Z',
  closedBy: { operatorId: 'op_2', name: 'Luis', label: 'luis@travesia.cl' },
};
const detail: ContactDetail = {
  ...unanswered,
  phone: '+56 9 1234 5678',
  detail: 'Necesito un certificado.\nViajo pronto.',
  recipient: 'contacto@travesia.cl',
  reply: null,
};

describe('contact requests (admin, support)', () => {
  it('refuses finance and content with a 403 page', async () => {
    for (const role of ['finance', 'content'] as const) {
      const { context } = contractApi({ 'GET /me': meAnswer([role]) });
      const thrown = await thrownBy(() => inboxLoader({ request: pageRequest('/contacto'), context } as never));
      expect(thrown).toMatchObject({ init: { status: 403 } });
    }
  });

  it('passes the URL’s Spanish filters to the API in its words, and keeps them on «Más»', async () => {
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /contact-requests?state=unanswered&olderThanHours=24': {
        status: 200,
        body: { requests: [unanswered, answered], nextCursor: '40' },
      },
    });
    const data = await inboxLoader({
      request: pageRequest('/contacto?estado=sin-responder&antiguedad=24&otro=x'),
      context,
    } as never);
    expect(calls.at(-1)?.path).toBe('/contact-requests?state=unanswered&olderThanHours=24');
    const html = renderPage(<ContactInboxView {...data} />, '/contacto');
    expect(html).toContain('href="/contacto/41"');
    expect(html).toContain('<strong>Sin responder</strong>');
    expect(html).toContain('Luis (luis@travesia.cl)');
    expect(html).toContain('href="/contacto?estado=sin-responder&amp;antiguedad=24&amp;cursor=40"');
    expect(html).toContain('<option value="sin-responder" selected="">');
  });

  it('says so when nothing matches, and when the API fails', async () => {
    const empty = renderPage(
      <ContactInboxView filters={{ estado: 'atendida' }} requests={[]} nextCursor={null} continued={false} />,
    );
    expect(empty).toContain('No hay solicitudes con estos filtros.');
    const failed = renderPage(
      <ContactInboxView filters={{}} requests={[]} nextCursor={null} continued={false} error="Sin conexión" />,
    );
    expect(failed).toContain('role="alert"');
    expect(failed).not.toContain('Todavía no llegan');
  });

  it('shows an unanswered request with the reply form (CSRF, labelled, hint) and «Marcar como atendida»', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['support']),
      'GET /contact-requests/41': { status: 200, body: { request: detail } },
    });
    const data = await requestLoader({ request: pageRequest('/contacto/41'), context, params: { id: '41' } } as never);
    const html = renderPage(<ContactRequestView {...data} csrfToken="csrf-123" />, '/contacto/41');
    expect(html).toContain('Solicitud N° 41');
    expect(html).toContain('name="csrf" value="csrf-123"');
    expect(html).toContain('<label for="campo-respuesta" class="field-label">Respuesta para Camila Rojas</label>');
    expect(html).toContain('Marcar como atendida');
    const closed = renderPage(
      <ContactRequestView request={{ ...detail, ...answered, reply: 'Listo, te lo enviamos.' }} csrfToken="c" />,
    );
    expect(closed).not.toContain('Enviar respuesta');
    expect(closed).toContain('Respondida por Luis (luis@travesia.cl)');
    expect(closed).toContain('Listo, te lo enviamos.');
  });

  it('replies and marks handled through the contract’s calls with the CSRF token; a conflict is told in words', async () => {
    const { context, calls } = contractApi({
      'POST /contact-requests/41/reply': { status: 200, body: { request: detail } },
      'POST /contact-requests/42/handled': {
        status: 409,
        body: {
          status: 409,
          detail: 'Conflict',
          errors: [{ field: 'state', code: 'stale', message: 'Luis ya respondió esta solicitud.' }],
        },
      },
    });
    const replied = answerOf<ContactRequestResult>(
      await requestAction({
        request: formPost('/contacto/41', { intent: 'reply', csrf: 'csrf-123', reply: ' Hola Camila ' }),
        context,
        params: { id: '41' },
      } as never),
    );
    expect(replied.data.ok).toBe(true);
    expect(calls[0]).toMatchObject({
      method: 'POST',
      path: '/contact-requests/41/reply',
      body: { reply: 'Hola Camila' },
    });
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-123');
    const lost = answerOf<ContactRequestResult>(
      await requestAction({
        request: formPost('/contacto/42', { intent: 'handled', csrf: 'csrf-123' }),
        context,
        params: { id: '42' },
      } as never),
    );
    expect(lost.status).toBe(409);
    expect(lost.data.message).toBe('Luis ya respondió esta solicitud.');
    const html = renderPage(<ContactRequestView request={detail} csrfToken="c" result={lost.data} />);
    expect(html).toContain('role="alert"');
  });

  it('an empty reply is refused before the API, and the field says why', async () => {
    const { context, calls } = contractApi({});
    const answer = answerOf<ContactRequestResult>(
      await requestAction({
        request: formPost('/contacto/41', { intent: 'reply', csrf: 'c', reply: '   ' }),
        context,
        params: { id: '41' },
      } as never),
    );
    expect(answer.status).toBe(400);
    expect(calls).toHaveLength(0);
    const html = renderPage(<ContactRequestView request={detail} csrfToken="c" result={answer.data} />);
    expect(html).toContain('aria-invalid="true"');
    expect(html).toContain('Escribe la respuesta.');
  });
});

const subscribers: Subscriber[] = [
  {
    id: 7,
    email: 'ana@example.cl',
    state: 'confirmed',
    subscribedAt: '2026-11-01T10:00:00Z',
    confirmedAt: '2026-11-01T10:05:00Z',
  },
  { id: 6, email: 'beto@example.cl', state: 'pending', subscribedAt: '2026-10-01T10:00:00Z', confirmedAt: null },
];

describe('newsletter (admin, support, content)', () => {
  it('refuses finance with a 403 page; passes state and e-mail search to the API', async () => {
    const refused = contractApi({ 'GET /me': meAnswer(['finance']) });
    const thrown = await thrownBy(() =>
      newsletterLoader({ request: pageRequest('/newsletter'), context: refused.context } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
    const { context, calls } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /newsletter/subscribers?state=confirmed&email=ana': {
        status: 200,
        body: { subscribers, nextCursor: '6' },
      },
    });
    const data = await newsletterLoader({
      request: pageRequest('/newsletter?estado=confirmadas&correo=ana'),
      context,
    } as never);
    expect(calls.at(-1)?.path).toBe('/newsletter/subscribers?state=confirmed&email=ana');
    const html = renderPage(<NewsletterView {...data} csrfToken="csrf-123" roles={['content']} />, '/newsletter');
    expect(html).toContain('Dar de baja<span class="sr-only"> a beto@example.cl</span>');
    expect(html).toContain('href="/api/backoffice/newsletter/subscribers.csv?email=ana"');
    expect(html).toContain('href="/newsletter?estado=confirmadas&amp;correo=ana&amp;cursor=6"');
    expect(html).toContain('Pendiente');
  });

  it('support sees no CSV link; an empty list says so', () => {
    const html = renderPage(
      <NewsletterView
        filters={{}}
        subscribers={[]}
        nextCursor={null}
        continued={false}
        csrfToken="c"
        roles={['support']}
      />,
    );
    expect(html).not.toContain('subscribers.csv');
    expect(html).toContain('Todavía no hay suscripciones al newsletter.');
  });

  it('unsubscribes with the CSRF token; someone faster is told in words', async () => {
    const { context, calls } = contractApi({ 'DELETE /newsletter/subscribers/7': { status: 204 } });
    const done = answerOf<NewsletterResult>(
      await newsletterAction({
        request: formPost('/newsletter', { intent: 'unsubscribe', id: '7', email: 'ana@example.cl', csrf: 'csrf-123' }),
        context,
      } as never),
    );
    expect(calls[0]?.headers.get('x-csrf-token')).toBe('csrf-123');
    expect(done.data).toEqual({ ok: true, message: 'ana@example.cl quedó dada de baja del newsletter.' });
    const gone = answerOf<NewsletterResult>(
      await newsletterAction({
        request: formPost('/newsletter', { intent: 'unsubscribe', id: '8', csrf: 'c' }),
        context,
      } as never),
    );
    expect(gone.status).toBe(404);
    expect(gone.data.message).toBe('Esa suscripción ya no existe: alguien la dio de baja.');
    const bad = answerOf<NewsletterResult>(
      await newsletterAction({
        request: formPost('/newsletter', { intent: 'unsubscribe', id: '../x' }),
        context,
      } as never),
    );
    expect(bad.status).toBe(400);
    expect(calls).toHaveLength(2);
  });
});
