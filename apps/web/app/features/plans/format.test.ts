import { describe, expect, it } from 'vitest';
import { instalmentsLabel, perPassengerPerDayLabel, taxTreatment, unavailablePlansMessage } from './format.ts';

describe('taxTreatment', () => {
  it('words every plan the same way: a taxed plan states its IVA, an untaxed one that it has none', () => {
    expect(taxTreatment(1.19)).toBe('Precio final, IVA 19 % incluido');
    expect(taxTreatment(1)).toBe('Precio final, no afecto a IVA');
  });
});

describe('instalmentsLabel', () => {
  it('shows the instalment amount the API computed', () => {
    expect(instalmentsLabel({ count: 6, formatted: '$13.438' })).toBe('o hasta 6 cuotas sin interés de $13.438');
  });
});

describe('perPassengerPerDayLabel', () => {
  it('says when the daily price per traveller is an average of several age bands', () => {
    expect(perPassengerPerDayLabel({ formatted: 'USD 2,13', averaged: false })).toBe('USD 2,13 por día por pasajero');
    expect(perPassengerPerDayLabel({ formatted: 'USD 2,83', averaged: true })).toBe(
      'USD 2,83 por día por pasajero en promedio',
    );
  });
});

describe('unavailablePlansMessage', () => {
  it('counts the plans and names the age band, in the singular and the plural', () => {
    expect(unavailablePlansMessage({ plans: 2, ageFrom: 75, ageTo: 84 })).toBe(
      '2 planes no están disponibles para pasajeros de 75 a 84 años',
    );
    expect(unavailablePlansMessage({ plans: 1, ageFrom: 0, ageTo: 74 })).toBe(
      '1 plan no está disponible para pasajeros de 0 a 74 años',
    );
    expect(unavailablePlansMessage({ plans: 4, ageFrom: 85, ageTo: 120 })).toBe(
      '4 planes no están disponibles para pasajeros de 85 años o más',
    );
  });

  it('names the plans and the reason when the API says which they are', () => {
    expect(unavailablePlansMessage({ plans: 1, ageFrom: 0, ageTo: 74, planNames: ['Travesía Senior'] })).toBe(
      'El plan Travesía Senior no está disponible para pasajeros de 0 a 74 años: no cubre esa edad',
    );
    expect(
      unavailablePlansMessage({ plans: 3, ageFrom: 85, ageTo: 120, planNames: ['Esencial', 'Plus', 'Premium'] }),
    ).toBe(
      '3 planes no están disponibles para pasajeros de 85 años o más: no cubren esa edad (Esencial, Plus y Premium)',
    );
    expect(unavailablePlansMessage({ plans: 2, ageFrom: 75, ageTo: 84, planNames: ['Esencial', 'Plus'] })).toBe(
      '2 planes no están disponibles para pasajeros de 75 a 84 años: no cubren esa edad (Esencial y Plus)',
    );
  });
});
