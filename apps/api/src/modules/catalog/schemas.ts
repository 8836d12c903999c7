import { z } from 'zod';

const id = z.number().int();

export const labelledSchema = z.object({ id: id, label: z.string() });
export const originSchema = labelledSchema.meta({ id: 'Origin' });
export const destinationSchema = labelledSchema.meta({ id: 'Destination' });
export const countrySchema = labelledSchema.meta({ id: 'Country' });

export const modalitySchema = z
  .object({
    id: id,
    label: z.string(),
    adddays: z.number().int().describe('Trip length proposed after choosing a departure date'),
    returnDateConfiguration: z.object({
      enabled: z.boolean().describe('true: the visitor chooses the return date; false: it is fixed'),
      addDays: z.number().int().describe('Days from departure to the fixed or proposed return date'),
    }),
    minDays: z.number().int().describe('Shortest trip sold in this modality, in days'),
    maxDays: z.number().int().describe('Longest trip sold in this modality, in days'),
  })
  .meta({ id: 'Modality' });

export const passengerTypeSchema = z
  .object({ id: id, label: z.string(), ageFrom: z.number().int(), ageTo: z.number().int() })
  .meta({ id: 'PassengerType' });

export const exchangeRateSchema = z
  .object({
    amount: z.number().describe('The requested USD amount in CLP, whole pesos rounded half up'),
    type: z.number().describe('CLP per USD in force'),
  })
  .meta({ id: 'ExchangeRate' });

export const passengerTypeProductSchema = z
  .object({ idPassangerTypeProducto: id, idPassangerType: id, idProducto: id })
  .meta({ id: 'PassengerTypeProduct' });

export const paymentGatewaySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    logo: z.string(),
    url: z.string(),
    testMode: z
      .boolean()
      .describe(
        "A test gateway here: what it takes moves no real money and is marked as a test payment (the sandbox, Webpay on Transbank's integration environment or credentials)",
      ),
  })
  .meta({ id: 'PaymentGateway' });

export type Modality = z.infer<typeof modalitySchema>;
export type PassengerType = z.infer<typeof passengerTypeSchema>;
