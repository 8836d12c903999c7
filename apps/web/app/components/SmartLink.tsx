import type { ReactNode } from 'react';
import { Link } from 'react-router';

type Props = {
  href: string;
  target?: string;
  className?: string;
  children: ReactNode;
  /** Decides which addresses are plain anchors; the rest are routed inside the app. */
  isPlain: (href: string) => boolean;
  onClick?: () => void;
};

/** A link from server configuration: a plain anchor for outside addresses, a routed Link for ours. */
export function SmartLink({ href, target, className, children, isPlain, onClick }: Props) {
  const opensNewTab = target === '_blank';
  if (isPlain(href)) {
    return (
      <a
        href={href}
        target={target}
        rel={opensNewTab ? 'noopener noreferrer' : undefined}
        className={className}
        onClick={onClick}
      >
        {children}
      </a>
    );
  }
  return (
    <Link to={href} target={target} rel={opensNewTab ? 'noopener' : undefined} className={className} onClick={onClick}>
      {children}
    </Link>
  );
}
