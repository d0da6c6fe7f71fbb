import { data } from "react-router";

/** The body of a form POST; any other content type, or a broken body, is a 4xx, never a 500. */
export async function formDataOf(request: Request): Promise<FormData> {
  const type = request.headers.get("content-type") ?? "";
  if (!type.startsWith("application/x-www-form-urlencoded") && !type.startsWith("multipart/form-data")) {
    throw data("Please send the form from the page.", { status: 415 });
  }
  try {
    return await request.formData();
  } catch {
    throw data("The form could not be read. Please try again.", { status: 400 });
  }
}
