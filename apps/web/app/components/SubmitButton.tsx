/** A form's submit button: disabled and showing `busyLabel` while the form is being sent, else `label`. */
export function SubmitButton({
  busy,
  label,
  busyLabel,
  className,
}: {
  busy: boolean;
  label: string;
  busyLabel: string;
  className: string;
}) {
  return (
    <button type="submit" disabled={busy} className={className}>
      {busy ? busyLabel : label}
    </button>
  );
}
