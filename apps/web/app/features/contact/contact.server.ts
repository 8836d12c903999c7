import { data, redirect } from 'react-router';
import { configuredCompanyId, serverApi } from '#app/lib/api.server.ts';
import { dataOrThrow, type FormFailure, formOutcome, type LoadContext } from '#app/lib/api-answer.server.ts';
import type { components } from '#app/lib/api-schema.d.ts';
import { withPreviewFallback } from '#app/lib/preview.server.ts';
import { type ContactValues, contactFieldNames, reCaptchaRequiredMessage, subjectIdOf } from './contact-schema.ts';

export type Contact = components['schemas']['Contact'];
export type ContactInfo = components['schemas']['ContactInfo'];
export type Subject = components['schemas']['Subject'];

/**
 * /contactanos: the whole directory (spec §7 `contacts?isEmergencyOrSaleContact=false`) and the short contacts; with
 * a console preview link of the contacts, their draft (the shell's banner says so), or the live ones if it does not
 * open.
 */
export async function loadDirectory(context: LoadContext, request: Request) {
  const api = serverApi(context);
  const path = { companyId: configuredCompanyId() };
  const {
    answer: [contacts, infos],
  } = await withPreviewFallback(request, (previewHeaders) =>
    Promise.all([
      api.GET('/companies/{companyId}/contacts', {
        params: { path, query: { isEmergencyOrSaleContact: 'false' } },
        ...previewHeaders,
      }),
      api.GET('/companies/{companyId}/contacts-info', { params: { path }, ...previewHeaders }),
    ]),
  );
  return {
    contacts: dataOrThrow(contacts, 'Los canales de contacto'),
    infos: dataOrThrow(infos, 'Los canales de contacto'),
  };
}

/** /contacto: the subjects to choose from and the reCAPTCHA site key (never in the bundle: from the API). */
export async function loadContactForm(context: LoadContext) {
  const api = serverApi(context);
  const path = { companyId: configuredCompanyId() };
  const [subjects, settings] = await Promise.all([
    api.GET('/companies/{companyId}/subjects', { params: { path } }),
    api.GET('/companies/{companyId}/contact-forms/settings', { params: { path } }),
  ]);
  return {
    subjects: dataOrThrow(subjects, 'El formulario de contacto'),
    reCaptchaSiteKey: dataOrThrow(settings, 'El formulario de contacto').reCaptchaSiteKey,
  };
}

/** /confirmacion: the emergency lines, for a visitor whose matter cannot wait for the answer. */
export async function loadConfirmation(context: LoadContext) {
  const { data } = await serverApi(context).GET('/companies/{companyId}/contacts-info', {
    params: { path: { companyId: configuredCompanyId() } },
  });
  return { emergency: (data ?? []).filter((info) => info.isEmergency) };
}

export type ContactActionResult = FormFailure & { values: ContactValues };

const text = (form: FormData, name: string) => {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
};

/**
 * Sends the form (a plain form post, or the same fields posted by the page's script with the reCAPTCHA token) to
 * `POST /companies/{companyId}/contact-forms?reCaptchaToken=`; on success the visitor goes to /confirmacion.
 */
export async function submitContactForm(context: LoadContext, request: Request) {
  const form = await request.formData();
  const values = Object.fromEntries(contactFieldNames.map((name) => [name, text(form, name)])) as ContactValues;
  // The widget's own field when the page posts the form as it is; the script's when it adds the token itself.
  const token = text(form, 'reCaptchaToken') || text(form, 'g-recaptcha-response');
  const answer = await serverApi(context).POST('/companies/{companyId}/contact-forms', {
    params: { path: { companyId: configuredCompanyId() }, query: { reCaptchaToken: token } },
    body: {
      fullName: values.fullName,
      email: values.email,
      phone: values.phone,
      // A missing subject goes as missing: the API answers «Seleccione un asunto».
      idSubject: subjectIdOf(values.idSubject) as number,
      detail: values.detail,
    },
  });
  const outcome = formOutcome(answer, {
    toField: (field) =>
      (contactFieldNames as readonly string[]).includes(field) || field === 'reCaptchaToken' ? field : null,
    invalidMessage: 'Revisa los datos de tu solicitud.',
  });
  if (outcome.ok) return redirect('/confirmacion');
  const errors = outcome.failure.errors.map((error) =>
    error.field === 'reCaptchaToken' && error.code === 'required'
      ? { ...error, message: reCaptchaRequiredMessage }
      : error,
  );
  const result: ContactActionResult = { ...outcome.failure, errors, values };
  // The API's status, so a plain form post (no JavaScript) gets the right page status too.
  return data(result, { status: outcome.status });
}
