import type { BackgroundWork } from '#app/worker.ts';

/**
 * What the modules tell each other through the app (`app.work`), instead of callbacks buildApp hands from one module
 * to another: named events a module emits (`fastify.work.emit('jobQueued')`) and whoever cares listens to (the
 * background work runs the job queue when an e-mail was queued), and the services the background work provides to
 * the operator's routes (`fastify.work.services`).
 */
export type WorkEvents = {
  /** A job was queued (an e-mail: a certificate, a code, a contact message, a refund's news). */
  jobQueued: [];
  /** A sale became paid: its certificates and their e-mails were queued. */
  salePaid: [saleId: number];
  /** A traveller withdrew a purchase: a refund and an e-mail are due. */
  purchaseWithdrawn: [];
  /** A sale refund was requested: its attempt is due. */
  refundRequested: [];
};

export type WorkEvent = keyof WorkEvents;

type Listener<E extends WorkEvent> = (...args: WorkEvents[E]) => void;

/** What the background work does on an operator's request (the admin routes of sale refunds). */
export type WorkServices = Pick<BackgroundWork, 'refundByHand' | 'holdRefund'>;

export class Work {
  readonly #listeners: { [E in WorkEvent]: Listener<E>[] } = {
    jobQueued: [],
    salePaid: [],
    purchaseWithdrawn: [],
    refundRequested: [],
  };
  #services: WorkServices | undefined;

  /** Calls `listener` on every `event`, in the order the listeners were added. */
  on<E extends WorkEvent>(event: E, listener: Listener<E>): void {
    this.#listeners[event].push(listener);
  }

  emit<E extends WorkEvent>(event: E, ...args: WorkEvents[E]): void {
    for (const listener of this.#listeners[event]) listener(...args);
  }

  /** Registers the background work's services (once, before the first request). */
  provide(services: WorkServices): void {
    this.#services = services;
  }

  get services(): WorkServices {
    if (!this.#services) throw new Error('app.work: no background work registered its services');
    return this.#services;
  }
}

/**
 * Connects the background work to `work`: each event nudges what it makes due (when this process runs the worker
 * inline; otherwise the nudges do nothing and the worker processes find the work in PostgreSQL), and the operator's
 * services are its own.
 */
export function registerBackgroundWork(work: Work, background: BackgroundWork): void {
  work.on('jobQueued', background.nudgeJobs);
  work.on('salePaid', background.nudgeJobs);
  work.on('purchaseWithdrawn', () => {
    background.nudgeJobs();
    background.nudgeRefunds();
  });
  work.on('refundRequested', background.nudgeRefunds);
  work.provide(background);
}
