import { zodResolver } from '@hookform/resolvers/zod';
import { emailMaxLength } from '@travesia/domain/rules';
import { useId, useRef, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigation, useSubmit } from 'react-router';
import {
  CheckboxField,
  ContinueButton,
  FormErrors,
  FormSection,
  SelectField,
  TextField,
} from '#app/components/fields.tsx';
import { type BillingValues, billingSchema, tidyRut } from './billing-schema.ts';
import type { BillingFailure } from './billing-step.server.ts';
import { useSubmissionErrors } from './posted-form.ts';
import { chileanRegions } from './regions.ts';

type Props = {
  initialValues: BillingValues;
  actionResult: BillingFailure | undefined;
  backTo: string;
};

/**
 * «Datos de facturación»: the buyer's address and, with «Necesito factura», the company the invoice is made out to.
 * Checked here first; the route action saves it. A real form posting to its route: without JavaScript it submits
 * natively and the server renders the values and errors; every input carries its value in the HTML.
 */
export function BillingForm({ initialValues, actionResult, backTo }: Props) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const companyId = useId();
  const formRef = useRef<HTMLFormElement>(null);
  // What the inputs show first: what was just posted and refused, else what was saved.
  const [start] = useState(() => actionResult?.values ?? initialValues);

  const {
    register,
    handleSubmit,
    watch,
    setValue,
    setError,
    formState: { errors },
  } = useForm<BillingValues>({
    resolver: zodResolver(billingSchema),
    defaultValues: start,
    mode: 'onTouched',
  });
  const province = watch('personalInformation.province');
  // A region saved in other words is kept as an option rather than lost.
  const regions: string[] =
    province && !(chileanRegions as readonly string[]).includes(province)
      ? [province, ...chileanRegions]
      : [...chileanRegions];

  const { errorOf } = useSubmissionErrors(actionResult, setError);

  // Checked here, then posted as the form itself: the action reads the same fields as a submission without JS.
  const onValid = () => {
    if (formRef.current) submit(formRef.current);
  };

  const personal = errors.personalInformation;
  const company = errors.companyDetails;

  return (
    <form
      ref={formRef}
      method="post"
      noValidate
      onSubmit={handleSubmit(onValid)}
      className="grid gap-5"
      aria-label="Datos de facturación"
    >
      <FormSection title="Dirección del comprador" description="La usamos para emitir tu boleta o factura.">
        <div className="grid grid-cols-2 gap-4 sm:grid-cols-6">
          <TextField
            className="col-span-2 sm:col-span-4"
            label="Dirección"
            autoComplete="address-line1"
            placeholder="Ej.: Av. Providencia"
            error={errorOf('personalInformation.address', personal?.address?.message)}
            defaultValue={start.personalInformation.address}
            {...register('personalInformation.address')}
          />
          <TextField
            className="col-span-1 sm:col-span-2"
            label="Número"
            inputMode="numeric"
            error={errorOf('personalInformation.streetNumber', personal?.streetNumber?.message)}
            defaultValue={start.personalInformation.streetNumber}
            {...register('personalInformation.streetNumber')}
          />
          <TextField
            className="col-span-1 sm:col-span-2"
            label="Depto."
            optional
            autoComplete="address-line2"
            error={errorOf('personalInformation.apartment', personal?.apartment?.message)}
            defaultValue={start.personalInformation.apartment}
            {...register('personalInformation.apartment')}
          />
          <TextField
            className="col-span-2 sm:col-span-4"
            label="Localidad / Comuna"
            autoComplete="address-level2"
            error={errorOf('personalInformation.locality', personal?.locality?.message)}
            defaultValue={start.personalInformation.locality}
            {...register('personalInformation.locality')}
          />
          <SelectField
            className="col-span-2 sm:col-span-6"
            label="Provincia / Región"
            error={errorOf('personalInformation.province', personal?.province?.message)}
            defaultValue={start.personalInformation.province}
            {...register('personalInformation.province')}
          >
            <option value="" disabled>
              Selecciona la región
            </option>
            {regions.map((region) => (
              <option key={region} value={region}>
                {region}
              </option>
            ))}
          </SelectField>
        </div>
      </FormSection>

      <FormSection
        title="Boleta o factura"
        description="Emitimos boleta electrónica. Si la compra es para una empresa, pide factura."
      >
        {/* The company's fields are always in the page, shown by CSS while the box is ticked (JavaScript or not). */}
        <div className="group">
          <CheckboxField
            label="Necesito factura"
            aria-controls={companyId}
            defaultChecked={start.generateInvoice}
            {...register('generateInvoice')}
          />
          <div id={companyId} className="hidden group-has-checked:block">
            <fieldset className="mt-4 grid grid-cols-1 gap-4 rounded-xl border border-slate-200 p-3 sm:grid-cols-2 sm:p-4">
              <legend className="px-1 text-sm font-bold text-slate-800">Datos de la empresa</legend>
              <TextField
                label="Razón social"
                autoComplete="organization"
                error={errorOf('companyDetails.name', company?.name?.message)}
                defaultValue={start.companyDetails.name}
                {...register('companyDetails.name')}
              />
              <TextField
                label="RUT"
                autoComplete="off"
                spellCheck={false}
                placeholder="76.086.428-5"
                error={errorOf('companyDetails.id', company?.id?.message)}
                defaultValue={start.companyDetails.id}
                {...register('companyDetails.id', {
                  onBlur: (event: { target: { value: string } }) => {
                    const tidy = tidyRut(event.target.value);
                    if (tidy !== event.target.value) setValue('companyDetails.id', tidy);
                  },
                })}
              />
              <TextField
                label="Giro"
                placeholder="Ej.: Servicios de ingeniería"
                error={errorOf('companyDetails.business', company?.business?.message)}
                defaultValue={start.companyDetails.business}
                {...register('companyDetails.business')}
              />
              <TextField
                label="Dirección"
                hint="Dirección comercial de la empresa."
                error={errorOf('companyDetails.address', company?.address?.message)}
                defaultValue={start.companyDetails.address}
                {...register('companyDetails.address')}
              />
              <TextField
                className="sm:col-span-2"
                label="E-mail"
                type="email"
                inputMode="email"
                maxLength={emailMaxLength}
                hint="Aquí enviaremos la factura."
                error={errorOf('companyDetails.email', company?.email?.message)}
                defaultValue={start.companyDetails.email}
                {...register('companyDetails.email')}
              />
            </fieldset>
          </div>
        </div>
      </FormSection>

      <FormErrors messages={actionResult?.formErrors ?? []} />

      <div className="flex flex-col-reverse items-stretch gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Link
          to={backTo}
          className="inline-flex items-center justify-center gap-1.5 rounded-xl px-4 py-3 font-semibold text-brand-700 hover:bg-brand-50"
        >
          <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor">
            <path d="M8.7 4.3 10 5.6 6.6 9H17v2H6.6l3.4 3.4-1.3 1.3L3 10l5.7-5.7Z" />
          </svg>
          Volver
        </Link>
        <ContinueButton submitting={submitting} label="Continuar al pago" />
      </div>
    </form>
  );
}
