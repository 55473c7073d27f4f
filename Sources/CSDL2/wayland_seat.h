#ifndef PLAYHEAD_CSDL2_WAYLAND_SEAT_H
#define PLAYHEAD_CSDL2_WAYLAND_SEAT_H

/* 1 when the Wayland compositor named by WAYLAND_DISPLAY answers and offers no seat (no wl_seat global: no input
 * at all, as weston's headless backend); 0 when it offers one, or cannot be asked (no libwayland-client, no
 * compositor: SDL then says why itself). Connects and disconnects; any thread. */
int ph_wayland_without_seat(void);

#endif
