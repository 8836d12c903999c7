/** The class names of «Mi compra»'s buttons and download links, shared by its cards. */
export const primaryButton =
  'w-full rounded-xl bg-accent-700 px-6 py-3 font-bold text-white shadow hover:bg-accent-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto';
export const secondaryButton =
  'w-full rounded-xl border-2 border-brand-700 px-5 py-2.5 font-bold text-brand-700 hover:bg-brand-700 hover:text-white disabled:cursor-wait disabled:opacity-60 sm:w-auto';
export const dangerButton =
  'w-full rounded-xl bg-red-700 px-5 py-3 font-bold text-white shadow hover:bg-red-800 disabled:cursor-wait disabled:opacity-70 sm:w-auto';
export const downloadLink =
  'flex items-center justify-center gap-2 rounded-xl bg-accent-700 px-4 py-3 font-bold text-white shadow hover:bg-accent-800';
