import { useNavigation } from 'react-router';

/** Whether the form posting `intent` is on its way (its button says so). */
export function useBusy(intent: string) {
  const navigation = useNavigation();
  return navigation.state === 'submitting' && navigation.formData?.get('intent') === intent;
}
