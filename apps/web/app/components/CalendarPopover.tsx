import * as Popover from '@radix-ui/react-popover';
import { type RefObject, useRef } from 'react';
import { DayPicker } from 'react-day-picker';
import { es } from 'react-day-picker/locale';
import 'react-day-picker/style.css';

type Props = {
  /** The field's calendar button: the popover sits beside it and gives it the focus back when it closes. */
  anchor: RefObject<HTMLButtonElement | null>;
  open: boolean;
  onOpenChange: (open: boolean) => void;
  label: string;
  selected: Date | undefined;
  min: Date;
  max: Date;
  onSelect: (date: Date) => void;
};

/**
 * DateField's calendar (Radix popover + react-day-picker in Spanish, ~34 KB gzip with its CSS). DateField loads
 * this module only when the visitor goes for the calendar button, so a page with a date field does not ship it.
 */
export default function CalendarPopover({ anchor, open, onOpenChange, label, selected, min, max, onSelect }: Props) {
  // As Popover.Trigger does: the focus returns to the button, unless the visitor clicked elsewhere to close.
  const clickedOutside = useRef(false);
  return (
    <Popover.Root
      open={open}
      onOpenChange={(next) => {
        if (next) clickedOutside.current = false;
        onOpenChange(next);
      }}
    >
      <Popover.Anchor virtualRef={anchor} />
      <Popover.Portal>
        <Popover.Content
          align="end"
          sideOffset={6}
          className="z-50 rounded-xl border border-slate-200 bg-white p-3 shadow-xl"
          aria-label={`Calendario: ${label}`}
          onInteractOutside={(event) => {
            // A press on the button itself toggles the calendar (the button's click closes it).
            if (anchor.current?.contains(event.target as Node)) event.preventDefault();
            else clickedOutside.current = true;
          }}
          onCloseAutoFocus={(event) => {
            event.preventDefault();
            if (!clickedOutside.current) anchor.current?.focus();
          }}
        >
          <DayPicker
            mode="single"
            locale={es}
            selected={selected}
            defaultMonth={selected ?? min}
            startMonth={min}
            endMonth={max}
            disabled={[{ before: min }, { after: max }]}
            onSelect={(date) => {
              if (date) onSelect(date);
            }}
            autoFocus
          />
        </Popover.Content>
      </Popover.Portal>
    </Popover.Root>
  );
}
