// The redirect page of the demo's sign-in: the authorization server sends the
// sign-in window here, and this hands its answer to the page that opened it.
import { finishSignIn } from 'rxmcp/browser';

if (!finishSignIn()) document.body.textContent = 'This page finishes a sign-in begun in the demo; open the demo instead.';
