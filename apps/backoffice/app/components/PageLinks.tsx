import { Link } from 'react-router';

/**
 * The links under a list read by keyset pages: «Volver al inicio» on a later page, «Más» while there is a next
 * page (`more` says what, for screen readers: «registros, más antiguos»).
 */
export function PageLinks({ first, next, more }: { first: string | null; next: string | null; more: string }) {
  if (!first && !next) return null;
  return (
    <div className="flex gap-3">
      {first ? (
        <Link to={first} className="button-secondary">
          Volver al inicio
        </Link>
      ) : null}
      {next ? (
        <Link to={next} className="button-secondary">
          Más<span className="sr-only"> {more}</span>
        </Link>
      ) : null}
    </div>
  );
}
