/**
 * The shapes of the console's API under /api/backoffice, as notes/backoffice-contract.md fixes them (issue 24).
 * The console reads only what it shows; fields it does not use may be added by the API without a change here.
 */

export const roles = ['admin', 'support', 'finance', 'content', 'pricing'] as const;
export type Role = (typeof roles)[number];

export const roleLabels: Record<Role, string> = {
  admin: 'Administración',
  support: 'Atención',
  finance: 'Finanzas',
  content: 'Contenidos',
  pricing: 'Precios',
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
export type TodayFigure = {
  key: string;
  label: string;
  value: number | string;
  unit?: 'clp';
  href: string;
  /** Something to act on, in words (the exchange rate is older than one business day). */
  warning?: string;
};
export type Today = { figures: TodayFigure[] };

/** GET /api/backoffice/sales: one row of the sale list. */
export type SaleRow = {
  id: number;
  status: 'pending' | 'paid' | 'withdrawing' | 'withdrawn';
  amountClp: number;
  testPayment: boolean;
  createdAt: string;
  paidAt: string | null;
  holder: string | null;
  travellers: number;
  plan: string | null;
  departureDate: string | null;
};
export type SalePage = { sales: SaleRow[]; nextCursor: string | null };

/** GET /api/backoffice/sales/:id (apps/api/src/modules/purchases/console-routes.ts). */
export type SaleDetail = {
  id: number;
  status: SaleRow['status'];
  testPayment: boolean;
  amountClp: number;
  amountUsd: number;
  createdAt: string;
  paidAt: string | null;
  plan: string | null;
  trip: {
    destination: string;
    destinationCountry: string | null;
    modality: string;
    departureDate: string;
    returnDate: string;
    days: number;
    discountCode: string | null;
  } | null;
  travellers: {
    seq: number;
    name: string;
    firstName: string;
    lastName: string;
    documentType: number;
    documentNumber: string;
    birthDate: string;
    email: string;
  }[];
  consents: {
    version: string;
    /** The version of each legal page in force when the buyer accepted (slug → number, date); older sales: none. */
    legalPages?: Record<string, { version: number; publishedAt: string }>;
    recordedAt: string;
    dataProcessing: boolean;
    marketing: boolean;
  } | null;
  payments: {
    id: number;
    purpose: string;
    gateway: string;
    status: string;
    amountClp: number;
    instalments: number | null;
    cardLastDigits: string | null;
    authorizationCode: string | null;
    createdAt: string;
    confirmedAt: string | null;
  }[];
  /** The money ledger, as «Mi compra» shows it (labels in Spanish from the API). */
  ledger: {
    paidClp: number;
    refundedClp: number;
    pendingRefundClp: number;
    netClp: number;
    entries: {
      kind: 'payment' | 'refund';
      id: number;
      label: string;
      date: string;
      gatewayName: string;
      amountClp: number;
      statusLabel: string;
      instalmentsText?: string | null;
    }[];
  };
  certificates: {
    number: string;
    travellerSeq: number | null;
    issuedAt: string;
    voidedAt: string | null;
    voidedReason: string | null;
  }[];
  verificationCodes: { version: number; code: string; createdAt: string; replacedAt: string | null }[];
  emails: {
    id: number;
    kind: string;
    status: string;
    attempts: number;
    lastError: string | null;
    createdAt: string;
    updatedAt: string;
  }[];
  dateChanges: {
    id: number;
    /** A change of dates, or add-ons bought from «Mi compra» afterwards. */
    kind: 'dates' | 'add_ons';
    status: string;
    previousDepartureDate: string;
    previousReturnDate: string;
    departureDate: string;
    returnDate: string;
    differenceClp: number;
    createdAt: string;
    appliedAt: string | null;
  }[];
  withdrawal: { status: string; available: boolean; reason: string | null; deadline: string } | null;
};
