import * as Dialog from '@radix-ui/react-dialog';
import { type ReactNode, useRef } from 'react';

type Props = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  title: string;
  description?: string;
  children: ReactNode;
  size?: 'md' | 'lg';
};

/** Accessible dialog (focus trap, Escape, labelled title) on Radix primitives, in the storefront's style. */
export function Modal({ open, onOpenChange, title, description, children, size = 'md' }: Props) {
  // These modals are opened from anywhere (nav button, quoter…), not from a Dialog.Trigger, so Radix does not know
  // where focus came from: remember it on open and give it back on close.
  const opener = useRef<HTMLElement | null>(null);
  return (
    <Dialog.Root open={open} onOpenChange={onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="fixed inset-0 z-50 bg-slate-900/60" />
        <Dialog.Content
          onOpenAutoFocus={() => {
            opener.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
          }}
          onCloseAutoFocus={(event) => {
            if (!opener.current) return;
            event.preventDefault();
            opener.current.focus();
          }}
          className={`fixed left-1/2 top-1/2 z-50 max-h-[90vh] w-[calc(100vw-1.5rem)] -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-2xl bg-white p-5 shadow-2xl sm:p-7 ${size === 'lg' ? 'max-w-3xl' : 'max-w-xl'}`}
        >
          <div className="mb-4 flex items-start justify-between gap-4">
            <Dialog.Title className="text-xl font-bold text-brand-700 sm:text-2xl">{title}</Dialog.Title>
            <Dialog.Close
              className="rounded-full p-1 text-2xl leading-none text-slate-500 hover:bg-slate-100 hover:text-slate-800"
              aria-label="Cerrar"
            >
              ×
            </Dialog.Close>
          </div>
          {description ? (
            <Dialog.Description className="mb-4 text-slate-600">{description}</Dialog.Description>
          ) : (
            <Dialog.Description className="sr-only">{title}</Dialog.Description>
          )}
          {children}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  );
}
