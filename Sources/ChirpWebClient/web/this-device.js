// This browser's device on the server for one user (API.md part 4, "Devices"): the keys of
// device-keys.js, made once per user per browser and PUT after every start (idempotent; it
// puts the device back if the server dropped it), with a new encryption key every 7 days.
// Retired keys are kept 30 days, long enough for what members with an older copy of the key
// sealed to it to have arrived and been opened (their opened text stays in the local
// database).
import { loadOrCreateDevice, registration, needsRotation, rotateDevice, dropRetiredKeys, wipeDeviceKeys } from './device-keys.js';

const KEEP_RETIRED_MS = 30 * 24 * 60 * 60 * 1000;

/** The name the user sees in their list of devices. */
export function deviceName() {
  const platform = navigator.userAgentData?.platform || navigator.platform || 'the web';
  return `Browser on ${platform}`;
}

/**
 * Loads (or makes) `username`'s device here, rotates its encryption key when due, and PUTs it.
 * Resolves to the device as stored. A device id the server binds to another identity key
 * (this browser's keys were lost and a copy of the id was not) starts over with a new device.
 * A failed PUT is thrown after the device is loaded: it can still open what was sealed to it.
 */
export async function registerDevice(api, username) {
  let { device } = await loadOrCreateDevice(username);
  if (needsRotation(device)) device = await rotateDevice(username);
  if (device.retired.length) device = await dropRetiredKeys(username, Date.now() - KEEP_RETIRED_MS);
  try {
    await api.putDevice(device.id, await registration(device, deviceName()));
  } catch (error) {
    if (error.code !== 'identity_key_changed') throw Object.assign(error, { device });
    await wipeDeviceKeys(username);
    ({ device } = await loadOrCreateDevice(username));
    await api.putDevice(device.id, await registration(device, deviceName()));
  }
  return device;
}
