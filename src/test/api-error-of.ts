/**
 * The API error a response carries (`{ error: { code, message, field } }`), with its status: what
 * server tests compare with `toMatchObject`.
 *
 * @example
 * expect(await errorOf(await app.request('/chat'))).toMatchObject({ status: 405 });
 */
export async function errorOf(response: Response) {
  const body = (await response.json()) as {
    error: { code: string; message: string; field: string | null };
  };
  return { status: response.status, ...body.error };
}
