// The sign-in window's redirect page (GET /signed-in): the authorization
// server sends the window here, and this hands its answer to the inspector's
// page that opened it (on this origin alone), then closes the window.
import { finishSignIn } from 'rxmcp/browser';

if (!finishSignIn()) document.body.textContent = 'This page finishes a sign-in begun in rxmcp inspect; there is nothing to do here.';
