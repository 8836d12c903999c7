import { zodResolver } from '@hookform/resolvers/zod';
import { contactFormLimits } from '@travesia/domain/rules';
import { useEffect, useId, useState } from 'react';
import { useForm } from 'react-hook-form';
import { Link, useNavigation, useSubmit } from 'react-router';
import { FormErrors, SelectField, TextAreaField, TextField } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import type { ContactActionResult, Subject } from './contact.server.ts';
import {
  type ContactValues,
  contactFieldNames,
  contactSchema,
  emptyContactValues,
  reCaptchaRequiredMessage,
} from './contact-schema.ts';
import { Recaptcha } from './Recaptcha.tsx';

type Props = { subjects: Subject[]; reCaptchaSiteKey: string; actionResult: ContactActionResult | undefined };

/**
 * «Completa tu solicitud» (spec §2, §5): checked in the browser with the API's own rules, errors after a field is
 * touched or after a submit attempt; the reCAPTCHA token goes with the form; «Enviando solicitud...» while it is
 * sent; the action sends the visitor to /confirmacion. Without JavaScript the form still posts (and says why it
 * cannot pass the robot check).
 */
export function ContactForm({ subjects, reCaptchaSiteKey, actionResult }: Props) {
  const submit = useSubmit();
  const navigation = useNavigation();
  const submitting = navigation.state !== 'idle' && navigation.formMethod === 'POST';
  const captchaErrorId = useId();
  const [token, setToken] = useState<string | null>(null);
  const [captchaError, setCaptchaError] = useState<string | undefined>(undefined);
  const [resetKey, setResetKey] = useState(0);

  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<ContactValues>({
    resolver: zodResolver(contactSchema),
    defaultValues: actionResult?.values ?? emptyContactValues,
    mode: 'onTouched',
  });
  const detailLength = watch('detail')?.length ?? 0;

  useEffect(() => {
    if (!actionResult) return;
    let focused = false;
    for (const error of actionResult.errors) {
      if (error.field === 'reCaptchaToken') {
        setCaptchaError(error.message);
        continue;
      }
      if ((contactFieldNames as readonly string[]).includes(error.field)) {
        setError(
          error.field as keyof ContactValues,
          { type: 'server', message: error.message },
          { shouldFocus: !focused },
        );
        focused = true;
      }
    }
    // The token may have been spent on the refused send: the visitor ticks the box again.
    setResetKey((key) => key + 1);
  }, [actionResult, setError]);

  const onToken = (value: string | null) => {
    setToken(value);
    if (value) setCaptchaError(undefined);
  };

  const onValid = (values: ContactValues) => {
    if (!token) {
      setCaptchaError(reCaptchaRequiredMessage);
      return;
    }
    submit({ ...values, reCaptchaToken: token }, { method: 'post' });
  };

  return (
    <form
      method="post"
      noValidate
      onSubmit={handleSubmit(onValid, () => {
        if (!token) setCaptchaError(reCaptchaRequiredMessage);
      })}
      className="grid gap-5 rounded-2xl bg-white p-4 shadow-sm ring-1 ring-slate-900/5 sm:p-8"
      aria-label="Completa tu solicitud"
    >
      <FormErrors messages={actionResult?.formErrors ?? []} />
      <div className="grid gap-5 sm:grid-cols-2">
        <TextField
          className="sm:col-span-2"
          label="Nombre y apellido"
          autoComplete="name"
          error={errors.fullName?.message}
          {...register('fullName')}
        />
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          placeholder="tu@correo.cl"
          error={errors.email?.message}
          {...register('email')}
        />
        <TextField
          label="Teléfono"
          type="tel"
          autoComplete="tel"
          inputMode="tel"
          placeholder="+56 9 1234 5678"
          error={errors.phone?.message}
          {...register('phone')}
        />
        <SelectField
          className="sm:col-span-2"
          label="Asunto"
          error={errors.idSubject?.message}
          {...register('idSubject')}
        >
          <option value="">Selecciona un asunto</option>
          {subjects.map((subject) => (
            <option key={subject.id} value={String(subject.id)}>
              {subject.label}
            </option>
          ))}
        </SelectField>
      </div>
      <TextAreaField
        label="Detalle de tu solicitud"
        rows={6}
        error={errors.detail?.message}
        hint={`${detailLength} de ${contactFormLimits.detail} caracteres`}
        {...register('detail')}
      />
      <Recaptcha
        siteKey={reCaptchaSiteKey}
        onToken={onToken}
        resetKey={resetKey}
        error={captchaError}
        errorId={captchaErrorId}
      />
      <noscript>
        <p className="rounded-xl border border-amber-300 bg-amber-50 px-4 py-3 text-amber-900">
          Para enviar este formulario activa JavaScript: usamos reCAPTCHA de Google para protegerlo del spam. También
          puedes escribirnos o llamarnos desde <Link to="/contactanos">Contáctanos</Link>.
        </p>
      </noscript>
      <SubmitButton
        busy={submitting}
        label="Enviar solicitud"
        busyLabel="Enviando solicitud..."
        className="justify-self-start rounded-xl bg-accent-700 px-6 py-3.5 text-lg font-bold text-white shadow hover:bg-accent-800 disabled:opacity-70 max-sm:w-full"
      />
      <p className="text-sm text-slate-600">
        Usaremos tus datos solo para responder esta solicitud. Este sitio está protegido por reCAPTCHA y se aplican la{' '}
        <a className="underline" href="https://policies.google.com/privacy" target="_blank" rel="noopener noreferrer">
          Política de Privacidad
        </a>{' '}
        y las{' '}
        <a className="underline" href="https://policies.google.com/terms" target="_blank" rel="noopener noreferrer">
          Condiciones del Servicio
        </a>{' '}
        de Google.
      </p>
    </form>
  );
}
