import { Form, useNavigation } from 'react-router';

type Props = { planId: number; planLabel: string; label?: string; className?: string };

/**
 * «Elegir plan»: a plain POST form with the plan id, answered by the comparator route's action, so it works without
 * JavaScript. With JavaScript, the pressed button says it is working.
 */
export function ChoosePlanForm({ planId, planLabel, label = 'Elegir plan', className = '' }: Props) {
  const navigation = useNavigation();
  const busy = navigation.state !== 'idle' && navigation.formData?.get('planId') === String(planId);
  return (
    <Form method="post" preventScrollReset className={className}>
      <input type="hidden" name="planId" value={planId} />
      <button
        type="submit"
        aria-label={`${label}: ${planLabel}`}
        disabled={busy}
        className="w-full rounded-xl bg-accent-700 px-4 py-3 font-bold text-white shadow-sm transition-colors hover:bg-accent-800 disabled:cursor-wait disabled:opacity-80"
      >
        {busy ? 'Un momento…' : label}
      </button>
    </Form>
  );
}
