/** Room names; every one is bound to a company, a user of a company, or a single session. */
export const rooms = {
  company: (cid: number) => `company:${cid}`,
  user: (cid: number, uid: number) => `company:${cid}:user:${uid}`,
  session: (sid: string) => `session:${sid}`,
  notification: (cid: number) => `company:${cid}:notification`,
  tickets: (cid: number, status: string) => `company:${cid}:tickets:${status}`,
  ticket: (cid: number, ticketId: number) => `company:${cid}:ticket:${ticketId}`,
};
