import { addDays, parseIsoDate, todayInChile } from '@travesia/domain/dates';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useSubmit } from 'react-router';
import type { QuoterActionResult } from './quoter.server.ts';
import {
  errorsOfAction,
  fieldOrder,
  initialValues,
  type PassengerTypes,
  postedEntries,
  type QuoterData,
  valuesTypedBeforeHydration,
} from './quoter-values.ts';
import type { QuoterErrors, QuoterValues } from './schema.ts';

/**
 * The quoter's rules (zod and the domain's, ~30 KB gzip) are fetched when the visitor first focuses or presses
 * something in the form, not with the page: home's first load carries no validation code (docs/performance.md).
 */
const loadRules = () => import('./schema.ts');

/**
 * The quoter's state: the values, their errors, and what follows from them (the destinations of the modality, a
 * fixed return date, the passengers' total); checked on submit, then field by field as they change.
 */
export function useQuoter(
  data: QuoterData & { passengerTypes: PassengerTypes; actionResult: QuoterActionResult | undefined },
) {
  const { modalities, destinationsByModality, passengerTypes, actionResult, quotation } = data;
  const submit = useSubmit();
  const formRef = useRef<HTMLFormElement>(null);
  const [values, setValues] = useState<QuoterValues>(() => initialValues(data, actionResult));
  const [errors, setErrors] = useState<QuoterErrors>(() => errorsOfAction(actionResult));
  // The server renders number inputs for the passengers; once hydrated they become the − / + steppers. What the
  // visitor chose or typed before the scripts ran (a slow phone) is taken over first, not silently reset.
  const [enhanced, setEnhanced] = useState(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: once, on hydration; the types never change meanwhile
  useEffect(() => {
    if (formRef.current) {
      const typed = new FormData(formRef.current);
      setValues((current) => valuesTypedBeforeHydration(current, typed, passengerTypes));
    }
    setEnhanced(true);
  }, []);
  // As react-hook-form did: checked on submit; after the first submit, each change checks its field again.
  const submitted = useRef(false);
  const recheck = useRef(new Set<keyof QuoterValues>());

  const change = <K extends keyof QuoterValues>(field: K, value: QuoterValues[K], check = submitted.current) => {
    if (check) recheck.current.add(field);
    setValues((current) => (current[field] === value ? current : { ...current, [field]: value }));
  };

  const { modality: modalityId, departureDate, passengers } = values;
  const modality = modalities.find((m) => String(m.id) === modalityId);
  const destinations = destinationsByModality[modalityId] ?? [];
  const returnFixed = modality ? !modality.returnDateConfiguration.enabled : false;
  const totalPassengers = Object.values(passengers).reduce((sum, count) => sum + count, 0);

  // A destination not offered for the new modality is cleared, so the visitor chooses again.
  const destination = values.destination;
  const firstDestination = String(destinations[0]?.id ?? '');
  const offered = destinations.some((d) => String(d.id) === destination);
  useEffect(() => {
    if (!offered && destination !== firstDestination) {
      setValues((current) => ({ ...current, destination: firstDestination }));
    }
  }, [offered, destination, firstDestination]);

  // The return date follows the departure: fixed by the modality, or proposed when still empty or earlier.
  useEffect(() => {
    if (!modality || parseIsoDate(departureDate) === null) return;
    const proposed = addDays(departureDate, modality.returnDateConfiguration.addDays);
    setValues((current) => {
      const { returnDate } = current;
      if (!returnFixed && parseIsoDate(returnDate) !== null && returnDate >= departureDate) return current;
      if (returnDate === proposed) return current;
      if (returnFixed && returnDate !== '') recheck.current.add('returnDate');
      return { ...current, returnDate: proposed };
    });
  }, [departureDate, modality, returnFixed]);

  // A changed field is checked again (after the first submit); the rules are already loaded by then.
  useEffect(() => {
    const fields = [...recheck.current];
    recheck.current.clear();
    if (fields.length === 0) return;
    void loadRules().then(({ quoterErrors }) => {
      const found = quoterErrors(values, modalities, todayInChile());
      setErrors((current) => {
        const next = { ...current };
        for (const field of fields) {
          if (found[field]) next[field] = found[field];
          else delete next[field];
        }
        return next;
      });
    });
  }, [values, modalities]);

  // Errors the API found (it checks everything again) appear beside their fields (the action names the field).
  useEffect(() => {
    const fromServer = errorsOfAction(actionResult);
    if (Object.keys(fromServer).length === 0) return;
    setErrors((current) => ({ ...current, ...fromServer }));
  }, [actionResult]);

  const onSubmit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    submitted.current = true;
    // Should the rules fail to load, the API still checks everything and its answer names the fields.
    const rules = await loadRules().catch(() => null);
    const found = rules ? rules.quoterErrors(values, modalities, todayInChile()) : {};
    setErrors(found);
    const first = fieldOrder.find((field) => found[field] !== undefined);
    if (first) {
      formRef.current?.querySelector<HTMLElement>(`[name="${first}"]:not([disabled])`)?.focus();
      return;
    }
    submit(postedEntries(values, quotation?.id ?? null), { method: 'post' });
  };

  const changePassengers = (typeId: number, delta: number) => {
    const next = Math.max(0, (passengers[String(typeId)] ?? 0) + delta);
    change('passengers', { ...passengers, [String(typeId)]: next }, errors.passengers !== undefined);
  };
  return {
    formRef,
    values,
    errors,
    enhanced,
    destinations,
    returnFixed,
    totalPassengers,
    change,
    changePassengers,
    onSubmit,
    preloadRules: () => void loadRules().catch(() => undefined),
  };
}
