import { redirect } from 'react-router';

// Spec §2: any other path goes to home.
export function loader() {
  return redirect('/');
}

export default function Fallback() {
  return null;
}
