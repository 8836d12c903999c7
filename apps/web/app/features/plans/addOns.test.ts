import { createElement } from 'react';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { AddOnRowGroup, PlanAddOns } from './AddOns.tsx';
import { addOnPriceLabel, addOnRows, missingAddOns, unavailableBandsLabel } from './addOns.ts';
import type { PlanAddOn } from './types.ts';

const bands = [
  { id: 1, ageFrom: 0, ageTo: 74 },
  { id: 2, ageFrom: 75, ageTo: 84 },
  { id: 3, ageFrom: 85, ageTo: 120 },
];

const price = (passengerTypeId: number, amountClp: number, formatted: string) => ({
  passengerTypeId,
  quantity: 1,
  amountClp,
  formatted,
  amountUsd: amountClp / 1000,
  formattedUsd: 'USD',
});

/** An add-on as the API answers it: `prices` one per band that may buy it, the first the lowest. */
function addOn(id: number, name: string, prices: ReturnType<typeof price>[], unavailableFor: number[] = []): PlanAddOn {
  const [lowest = price(1, 0, '$0')] = prices;
  return {
    id,
    code: `a${id}`,
    name,
    description: `Qué cubre ${name}.`,
    perPassenger: prices,
    from: { ...lowest },
    unavailableFor,
  };
}

const sports = addOn(1, 'Deportes y aventura', [price(1, 23_713, '$23.713')], [2]);
const preexisting = addOn(2, 'Preexistencias ampliadas', [price(1, 6_052, '$6.052'), price(2, 12_094, '$12.094')]);
const electronics = addOn(5, 'Electrónica y equipaje plus', [price(1, 14_228, '$14.228'), price(2, 14_228, '$14.228')]);

const esencial = { id: 410, label: 'Travesía Esencial', adicionales: [sports, preexisting, electronics] };
const anual = { id: 414, label: 'Travesía Anual', adicionales: [preexisting] };

describe('add-on wording', () => {
  it('«desde» only when travellers of different ages pay different prices', () => {
    expect(addOnPriceLabel(preexisting)).toBe('desde $6.052 por viajero');
    expect(addOnPriceLabel(sports)).toBe('$23.713 por viajero');
    expect(addOnPriceLabel(electronics)).toBe('$14.228 por viajero');
  });

  it('names the age bands that cannot take it, or nothing', () => {
    expect(unavailableBandsLabel(sports, bands)).toBe('No disponible para pasajeros de 75 a 84 años');
    expect(unavailableBandsLabel({ unavailableFor: [2, 3] }, bands)).toBe(
      'No disponible para pasajeros de 75 a 84 años ni pasajeros de 85 años o más',
    );
    expect(unavailableBandsLabel(preexisting, bands)).toBeNull();
  });
});

describe('addOnRows and missingAddOns', () => {
  it('one row per add-on of any plan, in first-seen order, with null where a plan cannot take it', () => {
    const rows = addOnRows([anual, esencial]);
    expect(rows.map((row) => row.name)).toEqual([
      'Preexistencias ampliadas',
      'Deportes y aventura',
      'Electrónica y equipaje plus',
    ]);
    expect(rows.map((row) => row.offers.map((offer) => offer?.id ?? null))).toEqual([
      [2, 2],
      [null, 1],
      [null, 5],
    ]);
  });

  it('a plan misses what another plan of the page offers; nothing when every plan offers the same', () => {
    expect(missingAddOns(anual, [esencial, anual])).toEqual(['Deportes y aventura', 'Electrónica y equipaje plus']);
    expect(missingAddOns(esencial, [esencial, anual])).toEqual([]);
    expect(missingAddOns(anual, [anual])).toEqual([]);
  });
});

describe('PlanAddOns (the plan card)', () => {
  it('lists each add-on with its price per traveller, what it covers behind <details>, and who cannot take it', () => {
    const html = renderToStaticMarkup(createElement(PlanAddOns, { plan: esencial, missing: [], bands }));
    expect(html).toContain('<h4 id="plan-410-adicionales"');
    expect(html).toContain('Adicionales disponibles</h4>');
    expect(html).toMatch(
      /<details><summary[^>]*><span[^>]*>Deportes y aventura<\/span> <span[^>]*>\$23\.713 por viajero<\/span><\/summary><p[^>]*>Qué cubre Deportes y aventura\.<\/p><p[^>]*>No disponible para pasajeros de 75 a 84 años\.<\/p><\/details>/,
    );
    expect(html).toContain('desde $6.052 por viajero');
    expect(html).not.toContain('No disponible con este plan');
  });

  it('says which add-ons of other plans this plan cannot take', () => {
    const html = renderToStaticMarkup(
      createElement(PlanAddOns, {
        plan: anual,
        missing: ['Deportes y aventura', 'Electrónica y equipaje plus'],
        bands,
      }),
    );
    expect(html).toContain('No disponible con este plan: Deportes y aventura y Electrónica y equipaje plus.');
  });

  it('a plan with none while others have some says so; nothing at all when no plan has any', () => {
    const none = { id: 1, label: 'Sin', adicionales: [] };
    expect(
      renderToStaticMarkup(createElement(PlanAddOns, { plan: none, missing: ['Deportes y aventura'], bands })),
    ).toContain('Este plan no admite adicionales para tu viaje.');
    expect(renderToStaticMarkup(createElement(PlanAddOns, { plan: none, missing: [], bands }))).toBe('');
  });
});

describe('AddOnRowGroup (the comparison table)', () => {
  it('one row per add-on: the price per traveller on each plan, or «No disponible con este plan»', () => {
    const html = renderToStaticMarkup(
      createElement(
        'table',
        null,
        createElement(AddOnRowGroup, { plans: [esencial, anual], bands, headerClassName: 'sticky' }),
      ),
    );
    expect(html).toContain('<tbody data-add-ons="">');
    expect(html).toContain('scope="rowgroup"');
    expect(html).toContain('Adicionales por viajero');
    const rows = html.split('<tr').slice(2);
    expect(rows).toHaveLength(3);
    const cells = (row: string) =>
      [...row.matchAll(/<td[^>]*>(.*?)<\/td>/g)].map((match) => (match[1] ?? '').replace(/<[^>]+>/g, '|'));
    // The row is named by the add-on (plain text); what it covers opens below.
    expect(rows[0]).toMatch(
      /<th scope="row"[^>]*>Deportes y aventura<details[^>]*><summary[^>]*>¿Qué cubre\?<\/summary>/,
    );
    expect(cells(rows[0] ?? '')).toEqual([
      '|$23.713 por viajero|| No disponible para pasajeros de 75 a 84 años|',
      '|No disponible con este plan|',
    ]);
    expect(cells(rows[1] ?? '')).toEqual(['|desde $6.052 por viajero|', '|desde $6.052 por viajero|']);
  });

  it('no rows when no plan offers an add-on', () => {
    const html = renderToStaticMarkup(
      createElement(
        'table',
        null,
        createElement(AddOnRowGroup, { plans: [{ ...anual, adicionales: [] }], bands, headerClassName: '' }),
      ),
    );
    expect(html).toBe('<table></table>');
  });
});
