/**
 * The shapes of the console's API under /api/backoffice, as notes/backoffice-contract.md fixes them (issue 24).
 * The console reads only what it shows; fields it does not use may be added by the API without a change here.
 */

export const roles = ['admin', 'support', 'finance', 'content'] as const;
export type Role = (typeof roles)[number];

export const roleLabels: Record<Role, string> = {
  admin: 'Administración',
  support: 'Atención',
  finance: 'Finanzas',
  content: 'Contenidos',
};

export type OperatorState = 'invited' | 'active' | 'deactivated';

export const operatorStateLabels: Record<OperatorState, string> = {
  invited: 'Invitado',
  active: 'Activo',
  deactivated: 'Desactivado',
};

export type Operator = {
  id: string;
  email: string;
  name: string | null;
  roles: Role[];
  state: OperatorState;
};

/** GET /api/backoffice/me */
export type Me = {
  operator: Operator;
  csrfToken: string;
  session: { id: string; createdAt: string; expiresAt: string };
};

/**
 * An error answer: the spec §8 body (`{ status, detail, instance, errors, requestId }`, apps/api/src/errors.ts),
 * whose `detail` is the catalogue's English text, and the contract's Spanish `message` when the API gives one.
 * The field errors' messages are Spanish.
 */
export type ErrorBody = {
  message?: string;
  detail?: string;
  status?: number;
  errors?: { field?: string; code?: string; message: string }[];
  requestId?: string;
};

/** An error as the console shows it: always a Spanish sentence, and the fields' messages. */
export type ApiError = { message: string; errors: { field?: string; code?: string; message: string }[] };

/** GET /api/backoffice/enrolment/:token */
export type Enrolment = {
  email: string;
  roles: Role[];
  totp: { secret: string; otpauthUrl: string; qrSvg: string };
};

/** POST /api/backoffice/enrolment/:token → 200 */
export type EnrolmentDone = { recoveryCodes: string[]; operator: Operator; csrfToken: string };

/** POST /api/backoffice/sign-in → 200 */
export type SignInStep = { step: 'second-factor'; challenge: string };

export type OwnSession = {
  id: string;
  current: boolean;
  createdAt: string;
  lastSeenAt: string;
  ip: string | null;
  userAgent: string | null;
};

export type ListedOperator = Operator & { createdAt?: string; lastSignInAt?: string | null };

export type ApiKey = {
  id: string;
  name: string;
  roles: Role[];
  createdAt?: string;
  expiresAt: string;
  lastUsedAt?: string | null;
  revokedAt?: string | null;
};

/** One row of the audit trail: who (an operator, an API key or the system, by `label`), what, on what, from where. */
export type AuditEntry = {
  id: string;
  at: string;
  actor: { operatorId: string | null; apiKeyId: string | null; label: string };
  ip: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  before?: unknown;
  after?: unknown;
};

/** GET /api/backoffice/audit */
export type AuditPage = { entries: AuditEntry[]; nextCursor: string | null };

/** One figure of «Hoy» (GET /api/backoffice/today). */
export type TodayFigure = { key: string; label: string; value: number | string; unit?: 'clp'; href: string };
export type Today = { figures: TodayFigure[] };
