import { describe, expect, it } from 'vitest';
import { withdrawalState, withdrawalWindow } from '#app/modules/purchases/withdrawal.ts';

/**
 * The withdrawal window in calendar days, as Chilean law counts them (Ley 19.496 art. 3 bis; Civil Code arts. 48–50):
 * through the 10th calendar day after the purchase date in Chile, until the midnight that ends it — not 10 × 24 h.
 */

const paidSale = (paidAt: string) => ({
  status: 'paid' as const,
  paidAt: new Date(paidAt),
  createdAt: new Date(paidAt),
});
const at = (paidAt: string, now: string, departureDate = '2027-01-20') =>
  withdrawalState(paidSale(paidAt), departureDate, undefined, new Date(now));

describe('withdrawal window (calendar days, Chile time)', () => {
  it('a purchase at 23:50 Chile time counts from that date: open through the last minute of the 10th day', () => {
    // 2026-11-20 23:50 in Chile (summer, UTC−3) is already the 21st in UTC.
    const paidAt = '2026-11-21T02:50:00Z';
    expect(withdrawalWindow(new Date(paidAt))).toStrictEqual({
      lastDay: '2026-11-30',
      closesAt: new Date('2026-12-01T03:00:00Z'),
    });
    // 10 × 24 h would have closed at 2026-11-30 23:50; the law's day runs to midnight.
    expect(at(paidAt, '2026-11-30T23:59:00-03:00')).toMatchObject({
      available: true,
      reasonCode: null,
      deadline: '2026-12-01T03:00:00.000Z',
      lastDay: '2026-11-30',
    });
    expect(at(paidAt, '2026-11-30T23:59:59.999-03:00').available).toBe(true);
    // The first minute of the 11th day: closed.
    expect(at(paidAt, '2026-12-01T00:00:00-03:00')).toMatchObject({
      available: false,
      reasonCode: 'window_expired',
    });
    expect(at(paidAt, '2026-12-01T00:01:00-03:00').reasonCode).toBe('window_expired');
  });

  it('a purchase just after midnight gets the same last day as one just before the next midnight', () => {
    expect(withdrawalWindow(new Date('2026-11-20T03:05:00Z')).lastDay).toBe('2026-11-30'); // 00:05 on the 20th
    expect(withdrawalWindow(new Date('2026-11-21T02:59:00Z')).lastDay).toBe('2026-11-30'); // 23:59 on the 20th
    expect(withdrawalWindow(new Date('2026-11-21T03:00:00Z')).lastDay).toBe('2026-12-01'); // 00:00 on the 21st
  });

  it('clocks going forward inside the window (2026-09-06): still midnight of the 10th day, now at UTC−3', () => {
    // Paid 2026-09-01 10:00 at UTC−4; the window ends at 2026-09-12 00:00 at UTC−3.
    const paidAt = '2026-09-01T14:00:00Z';
    expect(withdrawalWindow(new Date(paidAt)).lastDay).toBe('2026-09-11');
    expect(at(paidAt, '2026-09-11T23:59:00-03:00')).toMatchObject({
      available: true,
      deadline: '2026-09-12T03:00:00.000Z',
    });
    expect(at(paidAt, '2026-09-12T00:00:00-03:00').reasonCode).toBe('window_expired');
  });

  it('clocks going back inside the window (2026-04-05): midnight of the 10th day, now at UTC−4', () => {
    const paidAt = '2026-04-01T15:00:00Z'; // 12:00 at UTC−3
    expect(at(paidAt, '2026-04-11T23:59:00-04:00')).toMatchObject({
      available: true,
      lastDay: '2026-04-11',
      deadline: '2026-04-12T04:00:00.000Z',
    });
    expect(at(paidAt, '2026-04-12T00:00:00-04:00').reasonCode).toBe('window_expired');
  });

  it('still closes when the trip starts (departure date in Chile), even inside the 10 days', () => {
    const paidAt = '2026-11-21T02:50:00Z';
    expect(at(paidAt, '2026-11-24T23:59:00-03:00', '2026-11-25').available).toBe(true);
    expect(at(paidAt, '2026-11-25T00:00:00-03:00', '2026-11-25')).toMatchObject({
      available: false,
      reasonCode: 'trip_started',
    });
  });
});
