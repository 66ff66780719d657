// "Download my data": asks the server for an archive of the user's data (POST /v1/me/export),
// waits while it is written (GET answers 202), then saves it through a blob: link, since a plain
// link cannot send the bearer token.

/** Prepares, waits for and downloads the archive as `chirp-export-USERNAME.tar`; `onStatus`
 * hears what is happening. Gives up after `attempts` polls a second apart. */
export async function downloadMyData(session, onStatus, attempts = 300) {
  onStatus('Preparing your data…');
  await session.api.prepareExport();
  for (let attempt = 0; attempt < attempts; attempt += 1) {
    const blob = await session.api.exportArchive();
    if (blob) {
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = `chirp-export-${session.me}.tar`;
      document.body.append(link);
      link.click();
      link.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
      onStatus(`Your data was downloaded (${Math.ceil(blob.size / 1024)} KiB).`);
      return;
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  throw new Error('The server did not finish preparing your data; try again later.');
}
