// The page talks to the server only through the JSON API; a refusal carries the CLI's one error line.

export class ApiError extends Error {
  // body: the refusal as the server sent it ({error}, and for a refused choice also {rule, reason}).
  constructor(status, line, body = null) {
    super(line);
    this.status = status;
    this.body = body || {};
  }
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, (body && body.error) || `HTTP ${response.status}`, body);
  return body;
}

export async function getJSON(path) {
  return answer(await fetch(path, { headers: { accept: "application/json" } }));
}

// DELETE sends no body; the server takes it from the page's own origin only.
export async function deleteJSON(path) {
  return answer(await fetch(path, { method: "DELETE", headers: { accept: "application/json" } }));
}

export async function postJSON(path, value, { signal } = {}) {
  return postText(path, JSON.stringify(value), { signal });
}

// A body that is JSON text already (a save file as it was downloaded).
export async function postText(path, text, { signal } = {}) {
  return answer(
    await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: text,
      signal,
    }),
  );
}
