import { describe, expect, it } from 'vitest';
import { applyEdit, type FaqBody, faqFromForm, moved } from '#app/features/faq.ts';
import { answerOf, contractApi, formPost, meAnswer, pageRequest, thrownBy } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { action, type FaqResult, FaqView, loader } from './preguntas-frecuentes.tsx';

const live: FaqBody = {
  categories: [
    {
      name: 'Compra',
      questions: [
        { question: '¿Cómo compro?', answer: '<p>En línea.</p>' },
        { question: '¿Puedo pagar en cuotas?', answer: '<p>Sí.</p>' },
      ],
    },
    { name: 'Siniestros', questions: [{ question: '¿Cómo reclamo?', answer: '<p>Llamando.</p>' }] },
  ],
};
const item = { live, draft: null, changes: [], scheduled: null };

/** The form as the page posts it for `faq`. */
function formOf(faq: FaqBody, extra: Record<string, string>) {
  const fields: Record<string, string> = { csrf: 'csrf-1', version: '2', ...extra };
  faq.categories.forEach((category, i) => {
    fields[`categoria-${i}`] = category.name;
    category.questions.forEach((entry, j) => {
      fields[`pregunta-${i}-${j}`] = entry.question;
      fields[`respuesta-${i}-${j}`] = entry.answer;
    });
  });
  return fields;
}

describe('«Preguntas frecuentes» (content edits and publishes)', () => {
  it('shows every question with keyboard buttons to move it, and the history; support may not open it', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['content']),
      'GET /faq/faq': { status: 200, body: item },
      'GET /faq/faq/history': { status: 200, body: { publications: [] } },
    });
    const data = await loader({ request: pageRequest('/preguntas-frecuentes'), context, params: {} } as never);
    const html = renderPage(<FaqView {...data} csrfToken="c" />);
    expect(html).toContain('¿Puedo pagar en cuotas?');
    expect(html).toContain('Subir<span class="sr-only"> la pregunta «¿Puedo pagar en cuotas?»</span>');
    expect(html).toContain('Bajar<span class="sr-only"> la categoría Compra</span>');
    expect(html).toContain('Aún no hay publicaciones.');
    const outsider = contractApi({ 'GET /me': meAnswer(['support']) });
    const thrown = await thrownBy(() =>
      loader({ request: pageRequest('/preguntas-frecuentes'), context: outsider.context, params: {} } as never),
    );
    expect(thrown).toMatchObject({ init: { status: 403 } });
  });

  it('moving a question saves the draft in the new order; publish and stale saves answer in words', async () => {
    const { context, calls } = contractApi({
      'PUT /faq/faq/draft': { status: 200, body: { version: 3 } },
      'POST /faq/faq/publish': {
        status: 409,
        body: {
          detail: 'jefa@travesia.cl guardó este borrador a las 09:40 (versión 4).',
          errors: [{ field: 'version', code: 'stale', message: 'jefa@travesia.cl guardó este borrador a las 09:40.' }],
        },
      },
    });
    const post = (fields: Record<string, string>) =>
      action({ request: formPost('/preguntas-frecuentes', fields), context, params: {} } as never);
    const saved = answerOf<FaqResult>(await post(formOf(live, { intent: 'bajar:0:0' })));
    expect(saved.data.ok).toBe(true);
    const put = calls.find((call) => call.method === 'PUT');
    expect(put?.headers.get('x-csrf-token')).toBe('csrf-1');
    expect(put?.body).toStrictEqual({
      baseVersion: 2,
      body: {
        categories: [
          { name: 'Compra', questions: [live.categories[0]?.questions[1], live.categories[0]?.questions[0]] },
          live.categories[1],
        ],
      },
    });
    const stale = answerOf<FaqResult>(await post({ csrf: 'c', version: '2', intent: 'publicar' }));
    expect(stale).toMatchObject({ status: 409, data: { ok: false, message: expect.stringContaining('jefa@') } });
  });

  it('reads the form in order and applies the editing buttons', () => {
    const form = new FormData();
    for (const [name, value] of Object.entries(formOf(live, {}))) form.set(name, value);
    expect(faqFromForm(form)).toStrictEqual(live);
    expect(moved([1, 2, 3], 0, -1)).toStrictEqual([1, 2, 3]);
    expect(moved([1, 2, 3], 2, -1)).toStrictEqual([1, 3, 2]);
    expect(applyEdit(live, 'subir:1').categories.map((c) => c.name)).toStrictEqual(['Siniestros', 'Compra']);
    expect(applyEdit(live, 'quitar:0:0').categories[0]?.questions).toHaveLength(1);
    expect(applyEdit(live, 'agregar-pregunta:1').categories[1]?.questions.at(-1)).toStrictEqual({
      question: '',
      answer: '',
    });
    expect(applyEdit(live, 'agregar-categoria').categories).toHaveLength(3);
  });
});
