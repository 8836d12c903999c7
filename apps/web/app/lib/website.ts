import { useRouteLoaderData } from 'react-router';
import type { components } from './api-schema.d.ts';

export type WebsiteParameters = components['schemas']['WebsiteParameters'];
export type NavigationBar = components['schemas']['NavigationBar'];
export type Footer = components['schemas']['Footer'];
export type ContactInfo = components['schemas']['ContactInfo'];

export type RootData = {
  companyId: number;
  website: WebsiteParameters;
  /** What the covid upgrade costs per passenger and day (null: not known, the modal states the rule only). */
  covidUpgrade: components['schemas']['CovidUpgradePrice'] | null;
  /** A console preview link (issue 25): the draft shown, a link that did not open, or none. */
  preview: 'draft' | 'invalid' | null;
};

/** The website parameters loaded once by the root route, for any component of the page. */
export function useWebsite(): RootData {
  const data = useRouteLoaderData('root') as RootData | undefined;
  if (!data) throw new Error('useWebsite() outside the root route');
  return data;
}

/** Spec §2: each page sets its own title. */
export function pageTitle(title: string): { title: string }[] {
  return [{ title: `${title} | Travesía` }];
}
