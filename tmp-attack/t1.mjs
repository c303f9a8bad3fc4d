import { checkElicitationUrl } from '/work/main/dist/esm/client/questions/elicitation-url.js';
import { askHook } from '/work/main/dist/esm/client/questions/input-hooks.js';
import { firstValueFrom } from 'rxjs';
const cases = ['https:evil.example','https:\\\\evil.example\\x','https://bank.example.','https://xn--bnk-sna.example/','https://bаnk.example/','https://%62ank.example/','https://[fe80::1%25eth0]/','https://bank.example.com'+'.a'.repeat(1000)+'.evil.example/','http://localhost.evil.example/','http://127.0.0.1.nip.io/','http://0x7f.1/','http://[::ffff:7f00:1]/','https://bank.example%2F@evil','https://evil.example/#@bank.example','https://bank.example\u3002evil.example/', 'http://localhost./', 'https://evil.example/\u202ebank', 'https://ev\u200bil.example/', 'https://a\u00adb.example/', 'http://[::1]:80/', 'http://0/','https://bank.example／@evil.example/', 'https://bank.example%E2%81%84evil.example/'];
for (const c of cases) { const r = checkElicitationUrl(c); console.log(JSON.stringify(c.slice(0,80)), '=>', r.ok ? `OK host=${r.host.slice(0,60)} url=${r.url.slice(0,90)}` : 'REFUSED ' + r.reason); }
const warn = (m) => console.log('warn:', m);
const hooks = { onElicit: (q) => { console.log('FORM HOOK got', JSON.stringify(q)); return { action: 'accept', content: {} }; }, onElicitUrl: (q) => { console.log('URL hook', q); return { action: 'decline' }; } };
for (const mode of ['URL', 'url ', 'link', null]) {
  const ans = await firstValueFrom(askHook({ method: 'elicitation/create', params: { mode, message: 'Sign in to continue', url: 'https://evil.example/phish' } }, hooks, warn, 'round', 'k1'));
  console.log('mode', mode, '=> answer', JSON.stringify(ans));
}
