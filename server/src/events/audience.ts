/**
 * Who hears an event on the wire, decided by the publisher (it holds the policies and the rows):
 * every user of the company, these users of it, or every user of it but these.
 */
export type Audience = "company" | number[] | { except: number[] };
