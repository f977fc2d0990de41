// The page talks to the server only through the JSON API; a refusal carries the CLI's one error line.

export class ApiError extends Error {
  constructor(status, line) {
    super(line);
    this.status = status;
  }
}

async function answer(response) {
  let body = null;
  try {
    body = await response.json();
  } catch {
    body = null;
  }
  if (!response.ok) throw new ApiError(response.status, (body && body.error) || `HTTP ${response.status}`);
  return body;
}

export async function getJSON(path) {
  return answer(await fetch(path, { headers: { accept: "application/json" } }));
}

export async function postJSON(path, value, { signal } = {}) {
  return answer(
    await fetch(path, {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json" },
      body: JSON.stringify(value),
      signal,
    }),
  );
}
