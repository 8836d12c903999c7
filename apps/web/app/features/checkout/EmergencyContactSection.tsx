import { CheckboxField, FormSection } from '#app/components/fields.tsx';
import { ContactFields } from './ContactFields.tsx';
import type { PassengerSlot, PassengersValues } from './passengers-fields.ts';
import type { PassengersSectionProps } from './passengers-form.ts';

/** «Contacto de emergencia»: one for everyone (the default with several passengers) or one per passenger. */
export function EmergencyContactSection({
  form,
  errors,
  errorOf,
  slots,
  start,
  shared,
  passengers,
}: PassengersSectionProps & {
  slots: PassengerSlot[];
  shared: boolean;
  passengers: PassengersValues['passengers'];
}) {
  const { register } = form;
  const passengerName = (index: number) => {
    const p = passengers[index];
    const name = `${p?.firstName ?? ''} ${p?.lastName ?? ''}`.trim();
    return name || null;
  };
  return (
    <FormSection
      title="Contacto de emergencia"
      description="La persona a quien avisaremos si algo ocurre durante el viaje. Idealmente, alguien que no viaje."
    >
      {slots.length > 1 ? (
        <CheckboxField
          className="mb-4"
          label="Usar el mismo contacto de emergencia para todos los pasajeros"
          defaultChecked={start.shareEmergencyContact}
          {...register('shareEmergencyContact')}
        />
      ) : null}
      {shared ? (
        <ContactFields
          prefix="emergencyContact"
          errors={errors.emergencyContact}
          values={start.emergencyContact}
          errorOf={errorOf}
          register={register}
          autoCompleteSection="section-emergencia"
        />
      ) : (
        <div className="grid gap-4">
          {slots.map((slot, index) => (
            <fieldset
              // biome-ignore lint/suspicious/noArrayIndexKey: a passenger slot is its position (names may repeat; the list never reorders)
              key={`${slot.passengerTypeId}-${index}`}
              className="rounded-xl border border-slate-200 p-3 sm:p-4"
            >
              <legend className="px-1 text-sm font-bold text-slate-800">
                Contacto de emergencia del pasajero {index + 1}
                {passengerName(index) ? (
                  <span className="font-normal text-slate-500"> · {passengerName(index)}</span>
                ) : null}
              </legend>
              <ContactFields
                prefix={`passengers.${index}.emergencyContact`}
                errors={errors.passengers?.[index]?.emergencyContact}
                values={start.passengers[index]?.emergencyContact}
                errorOf={errorOf}
                register={register}
                autoCompleteSection={`section-emergencia-${index + 1}`}
              />
            </fieldset>
          ))}
        </div>
      )}
    </FormSection>
  );
}
