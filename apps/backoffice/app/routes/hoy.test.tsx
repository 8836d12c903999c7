import { describe, expect, it } from 'vitest';
import { figuresOf, figureTarget } from '#app/features/today.ts';
import { contractApi, meAnswer, pageRequest } from '#app/test/fake-api.ts';
import { renderPage } from '#app/test/render.tsx';
import { loader, TodayView } from './hoy.tsx';

const figures = [
  { key: 'sales-today', label: 'Ventas de hoy', value: 12, href: '/backoffice/ventas?desde=hoy' },
  // As the API answers an amount: pesos as a number, `unit` clp.
  {
    key: 'sales-month-amount',
    label: 'Monto vendido en el mes',
    value: 4350000,
    unit: 'clp' as const,
    href: '/backoffice/ventas?desde=mes',
  },
  { key: 'stuckPayments', label: 'Pagos en confirmación hace más de 5 min', value: 1234, href: '/reembolsos' },
];

describe('«Hoy»', () => {
  it('shows a figure’s warning in words (the exchange rate older than one business day)', () => {
    const warning =
      'El tipo de cambio vigente es del 26-11-2026: tiene 2 días hábiles de antigüedad. Actualízalo en «Tipo de cambio».';
    const html = renderPage(
      <TodayView
        figures={[
          {
            key: 'exchange-rate-age',
            label: 'Días desde el último tipo de cambio',
            value: 4,
            href: '/backoffice/tipo-de-cambio',
            warning,
          },
        ]}
      />,
    );
    expect(html).toContain(`Atención: </span>${warning}`);
    expect(html).toContain('href="/tipo-de-cambio"');
  });

  it('loads the figures of GET /today', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(['finance']),
      'GET /today': { status: 200, body: { figures } },
    });
    expect(await loader({ request: pageRequest('/'), context } as never)).toEqual({ figures });
  });

  it('shows an API failure as a notice, not a broken console', async () => {
    const { context } = contractApi({
      'GET /me': meAnswer(),
      'GET /today': { status: 503, body: { message: 'Servicio no disponible' } },
    });
    const data = await loader({ request: pageRequest('/'), context } as never);
    expect(data).toEqual({ figures: [], error: 'Servicio no disponible' });
    const html = renderPage(<TodayView {...data} />);
    expect(html).toContain('role="alert"');
    expect(html).toContain('No pudimos cargar las cifras de hoy.');
  });

  it('renders each figure as a card linked to its list', () => {
    const html = renderPage(<TodayView figures={figures} />);
    expect(html).toContain('href="/ventas?desde=hoy"');
    expect(html).toContain('href="/reembolsos"');
    expect(html).toContain('Ventas de hoy');
    expect(html).toContain('1.234');
    expect(html).toContain('$4.350.000');
  });

  it('says when there is nothing yet', () => {
    expect(renderPage(<TodayView figures={[]} />)).toContain('Todavía no hay cifras para mostrar hoy.');
  });

  it('accepts the figures bare or in { figures }, drops malformed ones, and links only inside the console', () => {
    expect(figuresOf(figures)).toHaveLength(3);
    expect(figuresOf({ figures: [...figures, { key: 'x' }] })).toHaveLength(3);
    expect(figuresOf(null)).toEqual([]);
    expect(figureTarget('/backoffice')).toBe('/');
    expect(figureTarget('https://evil.example/')).toBeNull();
    expect(figureTarget('//evil.example/')).toBeNull();
    expect(figureTarget('/api/backoffice/today')).toBeNull();
  });
});
