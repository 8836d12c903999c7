import type { CertificateSearchType } from '@travesia/domain/rules';
import { type FormEvent, useState } from 'react';
import { Form, useNavigation } from 'react-router';
import { FieldMessage } from '#app/components/fields.tsx';
import { SubmitButton } from '#app/components/SubmitButton.tsx';
import { CertificateCard, type Links } from './CertificateCard.tsx';
import type { SearchState, SendOutcome } from './certificates.server.ts';
import { keywordError, placeholderOf, type SearchChoice } from './search.ts';

type Props = {
  choices: SearchChoice[];
  search: SearchState;
  downloads: boolean;
  links: Links;
  /** What a no-JavaScript «Enviar» post answered (the page is rendered again with it). */
  sent: SendOutcome | null;
};

/** «Certificados» (spec §2): search by the holder's identity number, passport or e-mail; one card per certificate. */
export function CertificateSearch({ choices, search, downloads, links, sent }: Props) {
  const navigation = useNavigation();
  const [type, setType] = useState<CertificateSearchType>(search.type);
  const [keyword, setKeyword] = useState(search.keyword);
  const [checked, setChecked] = useState(search.error !== null);
  const [error, setError] = useState<string | null>(search.error);
  const searching =
    navigation.state !== 'idle' &&
    navigation.location?.pathname === '/certificados' &&
    !navigation.formMethod?.match(/post/i);
  const label = choices.find((choice) => choice.type === type)?.label ?? 'Email';

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    const problem = keywordError(type, keyword);
    setChecked(true);
    setError(problem);
    if (problem) event.preventDefault();
  };
  // Spec §4: changing the type re-applies its validation (once the visitor has tried a search).
  const chooseType = (next: CertificateSearchType) => {
    setType(next);
    if (checked || keyword !== '') setError(keywordError(next, keyword));
  };

  return (
    <div className="page-width py-10 sm:py-14">
      <header className="mb-8 max-w-2xl">
        <h1 className="text-3xl font-extrabold text-brand-700 sm:text-4xl">Certificados</h1>
        <p className="mt-3 text-slate-600">
          Busca los certificados de tus viajes con el documento o el correo del titular. Te los enviamos al correo
          registrado en la compra.
        </p>
      </header>

      <Form
        method="get"
        noValidate
        onSubmit={onSubmit}
        className="rounded-2xl bg-white p-5 shadow-lg ring-1 ring-slate-900/5 sm:p-6"
        aria-label="Buscar certificados"
      >
        <fieldset className="mb-4">
          <legend className="mb-2 text-sm font-semibold text-slate-700">Buscar por</legend>
          <div className="flex flex-wrap gap-2">
            {choices.map((choice) => (
              <label
                key={choice.type}
                className="flex cursor-pointer items-center gap-2 rounded-full border border-slate-300 px-4 py-2 text-sm font-semibold text-slate-700 has-[:checked]:border-brand-700 has-[:checked]:bg-brand-50 has-[:checked]:text-brand-700 has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-accent-700"
              >
                <input
                  type="radio"
                  name="tipo"
                  value={choice.type}
                  checked={type === choice.type}
                  onChange={() => chooseType(choice.type)}
                  className="accent-brand-700"
                />
                {choice.label}
              </label>
            ))}
          </div>
        </fieldset>
        <div className="flex flex-col gap-3 sm:flex-row sm:items-start">
          <div className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor="certificate-keyword" className="text-sm font-semibold text-slate-700">
              {label} del titular
            </label>
            <input
              id="certificate-keyword"
              name="valor"
              type={type === 'email' ? 'email' : 'text'}
              autoComplete={type === 'email' ? 'email' : 'off'}
              placeholder={placeholderOf(label)}
              value={keyword}
              onChange={(event) => {
                setKeyword(event.target.value);
                if (checked) setError(keywordError(type, event.target.value));
              }}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'certificate-keyword-message' : undefined}
              className="w-full min-w-0 rounded-lg border border-slate-300 bg-white px-3 py-2.5 text-slate-900 placeholder:text-slate-500 aria-[invalid=true]:border-red-600 aria-[invalid=true]:bg-red-50/40"
            />
            <FieldMessage id="certificate-keyword-message" error={error ?? undefined} />
          </div>
          <SubmitButton
            busy={searching}
            label="Buscar"
            busyLabel="Buscando..."
            className="rounded-xl bg-accent-700 px-8 py-3 font-bold text-white shadow hover:bg-accent-800 disabled:cursor-wait disabled:opacity-70 sm:mt-6"
          />
        </div>
      </Form>

      <div aria-live="polite" className="mt-8">
        {search.failure ? (
          <p role="alert" className="rounded-lg bg-red-50 px-4 py-3 font-semibold text-red-800">
            {search.failure}
          </p>
        ) : null}
        {search.results && search.results.length === 0 ? (
          <p className="rounded-2xl bg-slate-50 px-5 py-8 text-center text-lg font-semibold text-slate-700">
            No se encontraron certificados
          </p>
        ) : null}
        {search.results && search.results.length > 0 ? (
          <>
            <h2 className="mb-4 text-xl font-bold text-brand-700">
              {search.results.length === 1
                ? '1 certificado encontrado'
                : `${search.results.length} certificados encontrados`}
            </h2>
            <ul className="grid gap-5 md:grid-cols-2">
              {search.results.map((certificate) => (
                <CertificateCard
                  key={certificate.certificate}
                  certificate={certificate}
                  downloads={downloads}
                  links={links}
                  sent={sent?.certificate === certificate.certificate ? sent : null}
                />
              ))}
            </ul>
          </>
        ) : null}
      </div>
    </div>
  );
}
