/**
 * What a test payment's certificate says across every page (and in its text, where a reader finds it). Its own
 * module so that the certificates service names it without loading the PDF writer (pdf-lib, qrcode), which is
 * loaded with the first PDF (issue #10's memory).
 */
export const testPaymentStamp = 'SIN VALOR — PAGO DE PRUEBA';
