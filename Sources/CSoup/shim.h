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

// The "wrote-informational" signal of a server message: the 101 answer to a WebSocket handshake is out.
typedef void (*fd_server_message_fn)(SoupServerMessage *message, gpointer user_data);
static inline gulong fd_server_message_on_wrote_informational(SoupServerMessage *message,
                                                              fd_server_message_fn callback,
                                                              gpointer user_data,
                                                              GClosureNotify destroy) {
    return g_signal_connect_data(message, "wrote-informational", G_CALLBACK(callback), user_data,
                                 destroy, 0);
}

// A server's "request-started" and "request-read" signals (a request's first byte is awaited; its
// headers and body are read).
typedef void (*fd_server_request_fn)(SoupServer *server, SoupServerMessage *message,
                                     gpointer user_data);
static inline gulong fd_server_on(SoupServer *server, const char *signal,
                                  fd_server_request_fn callback, gpointer user_data) {
    return g_signal_connect_data(server, signal, G_CALLBACK(callback), user_data, NULL, 0);
}

// The GSocket under a stream stolen from a server message (libsoup 3.2 hands a SoupIOStream with its
// socket attached as "GSocket"), owned by the stream; NULL when there is none.
static inline GSocket *fd_stream_socket(GIOStream *stream) {
    if (G_IS_SOCKET_CONNECTION(stream))
        return g_socket_connection_get_socket(G_SOCKET_CONNECTION(stream));
    gpointer socket = g_object_get_data(G_OBJECT(stream), "GSocket");
    return socket && G_IS_SOCKET(socket) ? G_SOCKET(socket) : NULL;
}

// A pass-through GConverter over a WebSocket's incoming bytes: `take` sees every byte before libsoup
// does and writes the ones that pass to `output` (which has room for `length` + 14 bytes), returning
// how many; `destroy` runs on `user_data` when the converter goes.
typedef gsize (*fd_take_fn)(const guint8 *input, gsize length, guint8 *output, gpointer user_data);

typedef struct {
    GObject parent;
    fd_take_fn take;
    gpointer user_data;
    GDestroyNotify destroy;
} FdFrameGuard;

static GConverterResult fd_frame_guard_convert(GConverter *converter, const void *inbuf,
                                               gsize inbuf_size, void *outbuf, gsize outbuf_size,
                                               GConverterFlags flags, gsize *bytes_read,
                                               gsize *bytes_written, GError **error) {
    FdFrameGuard *guard = (FdFrameGuard *)converter;
    if (inbuf_size == 0) {
        // Nothing to look at: the end, or (with every byte so far dropped) a wait for more.
        *bytes_read = 0;
        *bytes_written = 0;
        if (flags & G_CONVERTER_INPUT_AT_END) return G_CONVERTER_FINISHED;
        if (flags & G_CONVERTER_FLUSH) return G_CONVERTER_FLUSHED;
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_PARTIAL_INPUT, "more input needed");
        return G_CONVERTER_ERROR;
    }
    if (outbuf_size <= 14) {
        g_set_error_literal(error, G_IO_ERROR, G_IO_ERROR_NO_SPACE, "no room");
        return G_CONVERTER_ERROR;
    }
    gsize count = MIN(inbuf_size, outbuf_size - 14);
    *bytes_read = count;
    *bytes_written = guard->take(inbuf, count, outbuf, guard->user_data);
    if (count == inbuf_size && (flags & G_CONVERTER_INPUT_AT_END)) return G_CONVERTER_FINISHED;
    if (count == inbuf_size && (flags & G_CONVERTER_FLUSH)) return G_CONVERTER_FLUSHED;
    return G_CONVERTER_CONVERTED;
}

static void fd_frame_guard_reset(GConverter *converter) { (void)converter; }

static void fd_frame_guard_finalize(GObject *object) {
    FdFrameGuard *guard = (FdFrameGuard *)object;
    if (guard->destroy) guard->destroy(guard->user_data);
    GObjectClass *parent = g_type_class_peek(G_TYPE_OBJECT);
    parent->finalize(object);
}

static void fd_frame_guard_class_init(gpointer klass, gpointer data) {
    (void)data;
    G_OBJECT_CLASS(klass)->finalize = fd_frame_guard_finalize;
}

static void fd_frame_guard_converter_init(gpointer iface, gpointer data) {
    (void)data;
    GConverterIface *converter = iface;
    converter->convert = fd_frame_guard_convert;
    converter->reset = fd_frame_guard_reset;
}

static inline GType fd_frame_guard_type(void) {
    static gsize type = 0;
    if (g_once_init_enter(&type)) {
        GType registered = g_type_from_name("FdFrameGuard");
        if (!registered) {
            registered = g_type_register_static_simple(G_TYPE_OBJECT, "FdFrameGuard",
                                                       sizeof(GObjectClass), fd_frame_guard_class_init,
                                                       sizeof(FdFrameGuard), NULL, 0);
            const GInterfaceInfo info = {fd_frame_guard_converter_init, NULL, NULL};
            g_type_add_interface_static(registered, G_TYPE_CONVERTER, &info);
        }
        g_once_init_leave(&type, registered);
    }
    return (GType)type;
}

// `base` (a connection stolen from a server message) with its incoming bytes read through `take`: the
// stream to make the WebSocket connection on (full reference). Closing it leaves `base` open.
static inline GIOStream *fd_guarded_stream(GIOStream *base, fd_take_fn take, gpointer user_data,
                                           GDestroyNotify destroy) {
    FdFrameGuard *guard = g_object_new(fd_frame_guard_type(), NULL);
    guard->take = take;
    guard->user_data = user_data;
    guard->destroy = destroy;
    GInputStream *input =
        g_converter_input_stream_new(g_io_stream_get_input_stream(base), G_CONVERTER(guard));
    g_object_unref(guard);
    GIOStream *stream = g_simple_io_stream_new(input, g_io_stream_get_output_stream(base));
    g_object_unref(input);
    return stream;
}

// A source on `context`'s thread default that runs `callback` when `socket` meets `condition`
// (G_IO_OUT: it takes more bytes); `destroy` runs on `user_data` when the source goes. Attached to the
// thread's default context; the caller holds the returned reference.
typedef gboolean (*fd_socket_ready_fn)(GSocket *socket, GIOCondition condition, gpointer user_data);
static inline GSource *fd_socket_watch(GSocket *socket, GIOCondition condition,
                                       fd_socket_ready_fn callback, gpointer user_data,
                                       GDestroyNotify destroy) {
    GSource *source = g_socket_create_source(socket, condition, NULL);
    g_source_set_callback(source, (GSourceFunc)(void (*)(void))callback, user_data, destroy);
    g_source_attach(source, g_main_context_get_thread_default());
    return source;
}

#endif
