package dev.sluice.rpc.grpc.internal;

import com.google.protobuf.Descriptors;
import io.grpc.protobuf.ProtoMethodDescriptorSupplier;

/** What gRPC server reflection reads of a method: its protobuf descriptor, its service's and its file. */
public final class MethodSchema implements ProtoMethodDescriptorSupplier {

    private final Descriptors.ServiceDescriptor service;
    private final String methodName;

    public MethodSchema(Descriptors.ServiceDescriptor service, String methodName) {
        this.service = service;
        this.methodName = methodName;
    }

    @Override
    public Descriptors.FileDescriptor getFileDescriptor() {
        return service.getFile();
    }

    @Override
    public Descriptors.ServiceDescriptor getServiceDescriptor() {
        return service;
    }

    @Override
    public Descriptors.MethodDescriptor getMethodDescriptor() {
        return service.findMethodByName(methodName);
    }
}
