import { todayInChile } from '@travesia/domain/dates';
import { DocumentType, documentTypeIds, documentTypeLabels } from '@travesia/domain/ids';
import { accountTypes, chileanBanks, documentAccept, refundLimits } from '@travesia/domain/refunds';
import { type FormEvent, useState } from 'react';
import { Form, Link, useNavigation } from 'react-router';
import { FormErrors, FormSection, SelectField, TextAreaField, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import type { FieldError } from '#app/lib/api-answer.server.ts';
import { standingErrors } from './edited-errors.ts';
import { FileField } from './FileField.tsx';

type Values = Partial<Record<string, string>>;

const noErrors: FieldError[] = [];
const noFields: ReadonlySet<string> = new Set();

export const fileHint = `PDF, JPG o PNG (boletas, facturas, informes médicos…). Hasta ${refundLimits.maxFiles} archivos de 5 MB cada uno.`;

/** The messages of one form field, joined (several files may each have their own). */
export function errorOf(errors: FieldError[], field: string): string | undefined {
  const messages = errors.filter((e) => e.field === field).map((e) => e.message);
  return messages.length > 0 ? messages.join(' ') : undefined;
}

/**
 * The expense claim («solicitud de reembolso»): a plain multipart form that the route's action turns into the API
 * call, so it works without JavaScript. Field errors come from the domain's rules (the action) or the API, by field.
 */
export function ClaimForm({
  errors: answered = noErrors,
  formErrors = [],
  values = {},
}: {
  errors?: FieldError[];
  formErrors?: string[];
  values?: Values;
}) {
  const navigation = useNavigation();
  const submitting = navigation.state === 'submitting';
  // The fields edited since this answer came: their errors (and those about the certificate they name) go at once.
  const [edited, setEdited] = useState<{ answer: FieldError[]; fields: ReadonlySet<string> }>(() => ({
    answer: answered,
    fields: new Set(),
  }));
  const editedFields = edited.answer === answered ? edited.fields : noFields;
  const errors = standingErrors(answered, editedFields);
  const onEdit = (event: FormEvent<HTMLFormElement>) => {
    const { name } = event.target as HTMLInputElement;
    if (!name || editedFields.has(name)) return;
    setEdited({ answer: answered, fields: new Set([...editedFields, name]) });
  };
  const field = (name: string) => ({ name, defaultValue: values[name] ?? '', error: errorOf(errors, name) });
  return (
    <Form
      method="post"
      encType="multipart/form-data"
      noValidate
      className="flex flex-col gap-5"
      onChange={onEdit}
      onInput={onEdit}
    >
      <FormErrors messages={formErrors} />
      <FormSection title="Datos del titular" description="La persona que figura en el certificado.">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Nombre y apellido"
            autoComplete="name"
            maxLength={refundLimits.holderName}
            {...field('nombreTitular')}
            className="sm:col-span-2"
          />
          <SelectField
            label="Tipo de documento"
            {...field('tipoDocumento')}
            defaultValue={values.tipoDocumento ?? String(DocumentType.rut)}
          >
            {documentTypeIds.map((type) => (
              <option key={type} value={type}>
                {documentTypeLabels[type]}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Número de documento"
            hint="RUT con guion, por ejemplo 12.345.678-5; DNI o pasaporte, al menos 5 caracteres sin espacios"
            {...field('numeroDocumento')}
          />
          <TextField
            label="Correo electrónico del titular"
            type="email"
            autoComplete="email"
            hint="Te enviaremos aquí el número de solicitud"
            {...field('email')}
          />
          <TextField label="Teléfono del titular" type="tel" autoComplete="tel" {...field('telefono')} />
        </div>
      </FormSection>
      <FormSection title="Qué pasó">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Número de certificado o de venta"
            hint="Aparece en tu certificado y en el correo de compra"
            {...field('numeroCertificado')}
          />
          <TextField label="Fecha del incidente" type="date" max={todayInChile()} {...field('fechaIncidente')} />
          <div className="sm:col-span-2">
            <TextAreaField
              label="Cuéntanos qué pasó"
              maxLength={refundLimits.description}
              hint={`Hasta ${refundLimits.description} caracteres`}
              {...field('descripcion')}
            />
          </div>
        </div>
      </FormSection>
      <FormSection title="Monto y cuenta para la transferencia">
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField
            label="Monto a reembolsar"
            inputMode="decimal"
            hint="Por ejemplo 185.000 o 85,50"
            {...field('monto')}
          />
          <SelectField label="Moneda" {...field('moneda')} defaultValue={values.moneda ?? 'CLP'}>
            <option value="CLP">Pesos chilenos (CLP)</option>
            <option value="USD">Dólares (USD)</option>
          </SelectField>
          <SelectField label="Banco" {...field('banco')}>
            <option value="">Selecciona tu banco</option>
            {chileanBanks.map((bank) => (
              <option key={bank.code} value={bank.code}>
                {bank.name}
              </option>
            ))}
          </SelectField>
          <SelectField label="Tipo de cuenta" {...field('tipoCuenta')}>
            <option value="">Selecciona el tipo de cuenta</option>
            {Object.entries(accountTypes).map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </SelectField>
          <TextField
            label="Número de cuenta"
            inputMode="numeric"
            {...field('numeroCuenta')}
            className="sm:col-span-2"
          />
        </div>
      </FormSection>
      <FormSection title="Documentos de respaldo">
        <FileField
          label="Adjunta tus documentos"
          name="documentos"
          multiple
          accept={documentAccept}
          hint={fileHint}
          error={errorOf(errors, 'documentos')}
        />
      </FormSection>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <Link to="/reembolsos/seguimiento" className="font-semibold text-brand-700 underline">
          ¿Ya enviaste tu solicitud? Revisa su estado
        </Link>
        <SubmitButton
          busy={submitting}
          label="Enviar solicitud"
          busyLabel="Enviando..."
          className="rounded-xl bg-accent-700 px-6 py-3.5 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70"
        />
      </div>
    </Form>
  );
}
