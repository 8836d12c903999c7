import { z } from 'zod';

export const faqCategorySchema = z
  .object({
    category: z.string(),
    contents: z.array(z.object({ question: z.string(), answer: z.string().describe('HTML, sanitised by the client') })),
  })
  .meta({ id: 'FaqCategory' });

export const subjectSchema = z.object({ id: z.number().int(), label: z.string() }).meta({ id: 'Subject' });

export const contactInfoSchema = z
  .object({
    label: z.string(),
    phone: z.string(),
    whatsapp: z.string().nullable(),
    icon: z.string(),
    isEmergency: z.boolean(),
    isSaleContact: z.boolean(),
  })
  .meta({ id: 'ContactInfo' });

export const contactSchema = z
  .object({
    category: z.string(),
    label: z.string(),
    isEmergency: z.boolean(),
    isSaleContact: z.boolean(),
    isPrioritized: z.boolean(),
    phones: z.array(z.string()),
    whatsapp: z.object({ phone1: z.string().nullable(), phone2: z.string().nullable() }),
    emails: z.array(z.object({ email: z.string() })),
    url: z.object({ href: z.string(), label: z.string() }).nullable(),
    banner: z.string().nullable(),
  })
  .meta({ id: 'Contact' });

export type ContactInfo = z.infer<typeof contactInfoSchema>;
export type Contact = z.infer<typeof contactSchema>;
