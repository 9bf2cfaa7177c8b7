// libsoup 3's headers for the Studio module, and small wrappers for what Swift cannot call directly
// (variadic constructors, signal-connection macros).
#ifndef FRAMEDIAL_CSOUP_SHIM_H
#define FRAMEDIAL_CSOUP_SHIM_H

#include <libsoup/soup.h>

// A server that hands handlers the request path exactly as sent (no percent-decoding, so no rewriting
// of "%2e%2e"): the handlers match whole paths against a fixed list.
static inline SoupServer *fd_soup_server_new(void) {
    return soup_server_new("raw-paths", TRUE, "server-header", "framedial-studio", NULL);
}

// The "message" signal of a WebSocket connection: a text or binary message arrived.
typedef void (*fd_websocket_message_fn)(SoupWebsocketConnection *connection, gint type,
                                        GBytes *message, gpointer user_data);
static inline gulong fd_websocket_on_message(SoupWebsocketConnection *connection,
                                             fd_websocket_message_fn callback, gpointer user_data) {
    return g_signal_connect_data(connection, "message", G_CALLBACK(callback), user_data, NULL, 0);
}

// The "closed" signal of a WebSocket connection.
typedef void (*fd_websocket_closed_fn)(SoupWebsocketConnection *connection, gpointer user_data);
static inline gulong fd_websocket_on_closed(SoupWebsocketConnection *connection,
                                            fd_websocket_closed_fn callback, gpointer user_data) {
    return g_signal_connect_data(connection, "closed", G_CALLBACK(callback), user_data, NULL, 0);
}

// The permessage-deflate extension's type (a macro): JPEG frames do not compress, so it is removed.
static inline GType fd_websocket_deflate_type(void) { return SOUP_TYPE_WEBSOCKET_EXTENSION_DEFLATE; }

#endif
