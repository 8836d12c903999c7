/** A quoter field's problem, below it (the field names it with aria-describedby). */
export function FieldError({ message, id }: { message: string | undefined; id: string }) {
  return message ? (
    <p id={id} className="text-sm font-medium text-red-700" role="alert">
      {message}
    </p>
  ) : null;
}
